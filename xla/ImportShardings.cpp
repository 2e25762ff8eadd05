#include "xla/ImportShardings.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "export/GspmdSharding.h"
#include "ir/MeshLookup.h"
#include "ir/Pass.h"
#include "xla/TileMesh.h"

namespace autopart {

namespace {

std::string maximalMeshName(int64_t device) { return "single_device_" + std::to_string(device); }

// Mesh position of each tile's device: the device id itself, or its index
// in the mesh's device_ids. Empty when a device is not on the mesh.
std::vector<int64_t> positionsOn(const HloSharding &h, const Mesh &mesh) {
  std::vector<int64_t> out;
  out.reserve(h.devices.size());
  int64_t n = mesh.numDevices();
  std::map<int64_t, int64_t> index;
  for (size_t i = 0; i < mesh.deviceIds.size(); ++i) index[mesh.deviceIds[i]] = int64_t(i);
  for (int64_t d : h.devices) {
    if (mesh.deviceIds.empty()) {
      if (d >= n) return {};
      out.push_back(d);
      continue;
    }
    auto it = index.find(d);
    if (it == index.end()) return {};
    out.push_back(it->second);
  }
  return out;
}

void flatten(const HloSharding &h, std::vector<const HloSharding *> &out) {
  if (h.kind != HloSharding::Kind::Tuple) {
    out.push_back(&h);
    return;
  }
  for (const HloSharding &e : h.elements) flatten(e, out);
}

size_t valueRank(const Module &m, TypeId t) { return m.types.isTensor(t) ? size_t(m.types.rank(t)) : 0; }

// One `mhlo.sharding` string of the module: where it is and what it says.
struct Site {
  OpId op;        // the op, or the function for arguments / results
  int where;      // 0 argument, 1 result, 2 op
  size_t index;   // argument / result number
  HloSharding sharding;
  std::vector<const HloSharding *> leaves;
};

std::string describe(const Site &s) {
  if (s.where == 0) return "argument " + std::to_string(s.index);
  if (s.where == 1) return "result " + std::to_string(s.index);
  return "op";
}

class Importer {
public:
  Importer(Module &m, const XlaImportOptions &opts, Diagnostics &diags) : m_(m), opts_(opts), diags_(diags) {}
  bool run();

private:
  bool collect();
  bool parseSite(OpId op, int where, size_t index, AttrId text);
  bool buildMesh();
  bool convert(Site &s);
  bool error(const Site &s, const std::string &message) {
    diags_.error(m_, s.op, "mhlo.sharding of " + describe(s) + ": " + message);
    return false;
  }

  Module &m_;
  XlaImportOptions opts_;
  Diagnostics &diags_;
  std::vector<Site> sites_;
  Mesh mesh_;
  std::string meshName_ = "mesh";
  std::set<int64_t> maximal_;
};

bool Importer::parseSite(OpId op, int where, size_t index, AttrId text) {
  if (text == kNoAttr || m_.attrs.kind(text) != AttrKind::String) return true;
  std::string raw = unescapeString(m_.attrs.stringValue(text));
  std::string why;
  size_t offset = 0;
  std::optional<HloSharding> h = parseHloSharding(raw, &why, &offset);
  Site s{op, where, index, {}, {}};
  if (!h)
    return error(s, "malformed sharding \"" + raw + "\" at character " + std::to_string(offset + 1) + ": " + why);
  s.sharding = std::move(*h);
  sites_.push_back(std::move(s));
  return true;
}

bool Importer::collect() {
  for (OpId func : m_.functions()) {
    FuncView f{m_, func};
    for (size_t i = 0; i < f.args().size(); ++i)
      if (!parseSite(func, 0, i, f.argAttr(i, "mhlo.sharding"))) return false;
    for (size_t i = 0; i < f.numResults(); ++i)
      if (!parseSite(func, 1, i, f.resultAttr(i, "mhlo.sharding"))) return false;
    bool ok = true;
    m_.walk(func, [&](OpId op) {
      if (ok && op != func) ok = parseSite(op, 2, 0, m_.attr(op, "mhlo.sharding"));
    });
    if (!ok) return false;
  }
  for (Site &s : sites_) flatten(s.sharding, s.leaves);
  return true;
}

// The common mesh: device count, device order, axis sizes.
bool Importer::buildMesh() {
  // V3 strings name their mesh: it is the module's, all must name the same,
  // and the V2 strings are placed on it.
  const Site *named = nullptr;
  for (const Site &s : sites_)
    for (const HloSharding *h : s.leaves) {
      if (h->kind != HloSharding::Kind::Named) continue;
      if (!named) {
        named = &s;
        mesh_ = h->mesh;
      } else if (!(h->mesh == mesh_)) {
        return error(s, "its mesh " + h->mesh.str() + " is not the mesh " + mesh_.str() + " of " + describe(*named));
      }
    }
  for (const Site &s : sites_)
    for (const HloSharding *h : s.leaves)
      if (h->kind == HloSharding::Kind::Maximal) maximal_.insert(h->device);
  if (named) return true;
  int64_t devices = 0;
  const Site *first = nullptr;
  for (const Site &s : sites_)
    for (const HloSharding *h : s.leaves) {
      if (h->kind != HloSharding::Kind::Tiled) continue;
      if (!first) {
        first = &s;
        devices = h->numTiles();
      } else if (h->numTiles() != devices) {
        return error(s, "tile assignment spans " + std::to_string(h->numTiles()) + " devices where " +
                            describe(*first) + " spans " + std::to_string(devices));
      }
    }
  if (!first) return true;
  // Device ids are positions unless some assignment is no layout of them;
  // then that assignment's order is the mesh's device order.
  Mesh probe;
  probe.axes = {{"_", devices}};
  for (int pass = 0; pass < 2; ++pass) {
    std::optional<std::vector<int64_t>> sizes;
    const Site *bad = nullptr;
    const HloSharding *badLeaf = nullptr;
    for (const Site &s : sites_) {
      for (const HloSharding *h : s.leaves) {
        if (h->kind != HloSharding::Kind::Tiled) continue;
        std::vector<int64_t> pos = positionsOn(*h, probe);
        std::optional<LocalMesh> local = pos.empty() ? std::nullopt : analyzeTileAssignment(h->tileDims, pos);
        if (!local) {
          bad = &s;
          badLeaf = h;
          break;
        }
        if (!sizes) {
          sizes = local->axisSizes;
          continue;
        }
        std::optional<std::vector<int64_t>> common = commonAxisSizes(*sizes, local->axisSizes);
        if (!common) return error(s, "its tile assignment shares no mesh with the other shardings of the module");
        sizes = common;
      }
      if (bad) break;
    }
    if (!bad) {
      for (size_t i = 0; i < sizes->size(); ++i)
        mesh_.axes.push_back({opts_.axisPrefix + std::to_string(i), (*sizes)[i]});
      mesh_.deviceIds = probe.deviceIds;
      return true;
    }
    if (pass == 1 || !probe.deviceIds.empty())
      return error(*bad, "its tile assignment is no layout of the mesh device order " +
                             std::string(probe.deviceIds.empty() ? "(iota)" : "of the other shardings"));
    probe.deviceIds = badLeaf->devices;
  }
  return true;
}

bool Importer::convert(Site &s) {
  std::vector<size_t> ranks;
  MutableFuncView f{m_, s.op};
  if (s.where == 0) ranks.push_back(valueRank(m_, m_.type(f.args()[s.index])));
  else if (s.where == 1) ranks.push_back(valueRank(m_, f.resultTypes()[s.index]));
  else
    for (uint32_t r = 0; r < m_.numResults(s.op); ++r) ranks.push_back(valueRank(m_, m_.type(m_.result(s.op, r))));
  std::vector<const HloSharding *> leaves = s.leaves;
  if (s.where == 2 && ranks.empty() && !leaves.empty()) {
    // An op without results keeps the first sharding, as a rank-0 one.
    leaves.resize(1);
    ranks.push_back(0);
  }
  if (leaves.size() != ranks.size())
    return error(s, std::to_string(leaves.size()) + " sharding(s) for " + std::to_string(ranks.size()) + " value(s)");
  std::vector<TensorSharding> out;
  for (size_t i = 0; i < leaves.size(); ++i) {
    std::string why;
    std::optional<TensorSharding> t = shardyFromHlo(*leaves[i], ranks[i], mesh_, meshName_, &why);
    if (!t) return error(s, why);
    out.push_back(std::move(*t));
  }
  if (s.where == 0) {
    f.setArgAttr(s.index, "sdy.sharding", m_.attrs.sharding(out[0]));
    f.removeArgAttr(s.index, "mhlo.sharding");
  } else if (s.where == 1) {
    f.setResultAttr(s.index, "sdy.sharding", m_.attrs.sharding(out[0]));
    f.removeResultAttr(s.index, "mhlo.sharding");
  } else {
    m_.setAttr(s.op, "sdy.sharding", m_.attrs.shardingPerValue(std::move(out)));
    m_.removeAttr(s.op, "mhlo.sharding");
  }
  return true;
}

bool Importer::run() {
  if (m_.top == kNone || !collect()) return false;
  if (sites_.empty()) return true;
  if (!buildMesh()) return false;
  // Convert into a scratch list first so that an error changes nothing.
  for (Site &s : sites_)
    for (const HloSharding *h : s.leaves) {
      if (h->kind != HloSharding::Kind::Tiled && h->kind != HloSharding::Kind::Named) continue;
      std::string why;
      size_t rank = h->kind == HloSharding::Kind::Tiled ? h->numDataDims() : h->named.dims.size();
      if (!h->wholeValue && !shardyFromHlo(*h, rank, mesh_, meshName_, &why)) return error(s, why);
    }
  while (m_.lookupSymbol(meshName_) != kNone) meshName_ += "_0";
  for (Site &s : sites_)
    if (!convert(s)) return false;
  BlockId top = m_.regions[m_.region(m_.top, 0)].blocks[0];
  OpId first = m_.blocks[top].ops.empty() ? kNone : m_.blocks[top].ops.front();
  auto addMesh = [&](const std::string &name, const Mesh &mesh) {
    OpId op = m_.createOp("sdy.mesh", {}, {},
                          {{m_.names.get("sym_name"), m_.attrs.string(name)}, {m_.names.get("mesh"), m_.attrs.mesh(mesh)}});
    m_.insertOp(top, op, first);
  };
  addMesh(meshName_, mesh_);
  for (int64_t d : maximal_) {
    Mesh single;
    single.deviceIds = {d};
    if (m_.lookupSymbol(maximalMeshName(d)) == kNone) addMesh(maximalMeshName(d), single);
  }
  return true;
}

// Same layout: the same devices hold the same tiles (texts may differ,
// `<=[4]` against `0,1,2,3`).
bool sameLayout(const HloSharding &a, const HloSharding &b) {
  if (a.kind != b.kind) return false;
  if (a.kind == HloSharding::Kind::Maximal) return a.device == b.device;
  if (a.kind == HloSharding::Kind::Tuple) {
    if (a.elements.size() != b.elements.size()) return false;
    for (size_t i = 0; i < a.elements.size(); ++i)
      if (!sameLayout(a.elements[i], b.elements[i])) return false;
    return true;
  }
  return a.tileDims == b.tileDims && a.devices == b.devices && a.subgroupTypes == b.subgroupTypes;
}

// Strings beside Shardy attributes (xla/ImportShardings.h).
class Merger {
public:
  Merger(Module &m, Diagnostics &diags) : m_(m), diags_(diags) {}
  bool run();

private:
  bool site(OpId op, int where, size_t index, AttrId text, AttrId sdy, std::vector<size_t> ranks);
  bool error(OpId op, int where, size_t index, const std::string &message) {
    Site s{op, where, index, {}, {}};
    diags_.error(m_, op, "mhlo.sharding of " + describe(s) + ": " + message);
    return false;
  }

  Module &m_;
  Diagnostics &diags_;
  std::string meshName_;  // the program's one device mesh, "" when none or several
  int meshes_ = 0;
  // Values to give a sharding, applied once every string was checked.
  struct Pending {
    OpId op;
    int where;
    size_t index;
    std::vector<TensorSharding> shardings;
  };
  std::vector<Pending> pending_;
};

bool Merger::site(OpId op, int where, size_t index, AttrId text, AttrId sdy, std::vector<size_t> ranks) {
  if (text == kNoAttr || m_.attrs.kind(text) != AttrKind::String) return true;
  std::string raw = unescapeString(m_.attrs.stringValue(text));
  std::string why;
  size_t offset = 0;
  std::optional<HloSharding> h = parseHloSharding(raw, &why, &offset);
  if (!h)
    return error(op, where, index,
                 "malformed sharding \"" + raw + "\" at character " + std::to_string(offset + 1) + ": " + why);
  std::vector<const HloSharding *> leaves;
  flatten(*h, leaves);
  if (where == 2 && ranks.empty() && !leaves.empty()) {
    leaves.resize(1);
    ranks.push_back(0);
  }
  if (leaves.size() != ranks.size())
    return error(op, where, index,
                 std::to_string(leaves.size()) + " sharding(s) for " + std::to_string(ranks.size()) + " value(s)");
  if (sdy != kNoAttr) {
    // Both: the Shardy sharding is what the plan reads; the string must say
    // the same, or one of the user's shardings would be dropped.
    const AttrStorage &st = m_.attrs.get(sdy);
    std::vector<TensorSharding> have;
    if (st.kind == AttrKind::Sharding) have.push_back(*st.sharding);
    else if (st.kind == AttrKind::ShardingPerValue) have = st.shardings;
    if (have.size() != leaves.size()) return error(op, where, index, "sdy.sharding and mhlo.sharding list different values");
    for (size_t i = 0; i < have.size(); ++i) {
      const Mesh *mesh = shardingMesh(m_, have[i]);
      std::string written = mesh ? gspmdSharding(have[i], *mesh, &why) : std::string();
      std::optional<HloSharding> back = written.empty() ? std::nullopt : parseHloSharding(written, &why, &offset);
      if (!back || !sameLayout(*back, *leaves[i]))
        return error(op, where, index,
                     "\"" + raw + "\" disagrees with its sdy.sharding" + (written.empty() ? "" : " (\"" + written + "\")"));
    }
    return true;
  }
  if (meshName_.empty())
    return error(op, where, index,
                 "\"" + raw + "\" on a value without sdy.sharding, and the program has " +
                     (meshes_ ? "several device meshes" : "no device mesh") + " to place it on");
  const Mesh &mesh = *meshNamed(m_, meshName_);
  Pending p{op, where, index, {}};
  for (size_t i = 0; i < leaves.size(); ++i) {
    std::optional<TensorSharding> t = shardyFromHlo(*leaves[i], ranks[i], mesh, meshName_, &why);
    if (t && leaves[i]->kind == HloSharding::Kind::Maximal && !meshNamed(m_, t->meshName))
      why = "no sdy.mesh @" + t->meshName + " for it", t.reset();
    if (!t) return error(op, where, index, "\"" + raw + "\" cannot be placed on @" + meshName_ + ": " + why);
    p.shardings.push_back(std::move(*t));
  }
  pending_.push_back(std::move(p));
  return true;
}

bool Merger::run() {
  if (m_.top == kNone) return true;
  bool anyMesh = false;
  for (BlockId b : m_.regions[m_.region(m_.top, 0)].blocks)
    for (OpId op : m_.blocks[b].ops) {
      if (!m_.isa(op, "sdy.mesh")) continue;
      anyMesh = true;
      AttrId a = m_.attr(op, "mesh"), n = m_.attr(op, "sym_name");
      if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::Mesh || n == kNoAttr) continue;
      const Mesh &mesh = *m_.attrs.get(a).mesh;
      if (mesh.axes.empty()) continue;  // maximal meshes hold no tiles
      ++meshes_;
      meshName_ = meshes_ == 1 ? m_.attrs.stringValue(n) : std::string();
    }
  if (!anyMesh) return true;  // no Shardy program: isGspmdProgram decides
  for (OpId func : m_.functions()) {
    FuncView f{m_, func};
    for (size_t i = 0; i < f.args().size(); ++i)
      if (!site(func, 0, i, f.argAttr(i, "mhlo.sharding"), f.argAttr(i, "sdy.sharding"),
                {valueRank(m_, m_.type(f.args()[i]))}))
        return false;
    for (size_t i = 0; i < f.numResults(); ++i)
      if (!site(func, 1, i, f.resultAttr(i, "mhlo.sharding"), f.resultAttr(i, "sdy.sharding"),
                {valueRank(m_, f.resultTypes()[i])}))
        return false;
    bool ok = true;
    m_.walk(func, [&](OpId op) {
      if (!ok || op == func) return;
      std::vector<size_t> ranks;
      for (uint32_t r = 0; r < m_.numResults(op); ++r) ranks.push_back(valueRank(m_, m_.type(m_.result(op, r))));
      ok = site(op, 2, 0, m_.attr(op, "mhlo.sharding"), m_.attr(op, "sdy.sharding"), std::move(ranks));
    });
    if (!ok) return false;
  }
  // The strings stay: the plan's output rewrites them in step with it.
  for (Pending &p : pending_) {
    MutableFuncView f{m_, p.op};
    if (p.where == 0) f.setArgAttr(p.index, "sdy.sharding", m_.attrs.sharding(p.shardings[0]));
    else if (p.where == 1) f.setResultAttr(p.index, "sdy.sharding", m_.attrs.sharding(p.shardings[0]));
    else m_.setAttr(p.op, "sdy.sharding", m_.attrs.shardingPerValue(std::move(p.shardings)));
  }
  return true;
}

bool runImport(Module &m, const PassOptions &, Diagnostics &diags) {
  return importXlaShardings(m, XlaImportOptions{}, diags);
}

PassRegistration reg("xla-sdy-import-shardings",
                     "GSPMD mhlo.sharding strings to sdy.sharding on one common mesh", runImport);

}  // namespace

namespace {

// A V3 string: its sharding as written, on `mesh` when that is the mesh it names.
std::optional<TensorSharding> shardyFromNamed(const HloSharding &h, size_t rank, const Mesh &mesh,
                                              const std::string &meshName, std::string *error,
                                              std::vector<AxisRef> *manual) {
  if (!(h.mesh == mesh)) {
    *error = "names the mesh " + h.mesh.str() + ", the module's is " + mesh.str();
    return std::nullopt;
  }
  TensorSharding t = h.named;
  t.meshName = meshName;
  if (h.wholeValue) {
    t.dims = TensorSharding::closed(meshName, rank).dims;
  } else if (t.dims.size() != rank) {
    *error = std::to_string(t.dims.size()) + " dimension sharding(s) for a rank-" + std::to_string(rank) + " value";
    return std::nullopt;
  }
  // Manual axes are a property of the enclosing manual computation, not of
  // the value's sharding; checked with it so that no axis is used twice.
  TensorSharding all = t;
  all.replicated.insert(all.replicated.end(), h.manualAxes.begin(), h.manualAxes.end());
  if (std::string bad = all.verify(mesh, int64_t(rank)); !bad.empty()) {
    *error = bad;
    return std::nullopt;
  }
  if (manual) manual->insert(manual->end(), h.manualAxes.begin(), h.manualAxes.end());
  return t;
}

}  // namespace

std::optional<TensorSharding> shardyFromHlo(const HloSharding &h, size_t rank, const Mesh &mesh,
                                            const std::string &meshName, std::string *error,
                                            std::vector<AxisRef> *manual) {
  TensorSharding t;
  t.meshName = meshName;
  switch (h.kind) {
  case HloSharding::Kind::Maximal:
    t.meshName = maximalMeshName(h.device);
    return t;
  case HloSharding::Kind::Manual:
    if (manual)
      for (const MeshAxis &a : mesh.axes) manual->push_back({a.name});
    return TensorSharding::closed(meshName, rank);
  case HloSharding::Kind::Replicated:
    return TensorSharding::closed(meshName, rank);
  case HloSharding::Kind::Unknown:
    return TensorSharding::open(meshName, rank);
  case HloSharding::Kind::Tuple:
    *error = "a tuple sharding for a single value";
    return std::nullopt;
  case HloSharding::Kind::Named:
    return shardyFromNamed(h, rank, mesh, meshName, error, manual);
  case HloSharding::Kind::Tiled:
    break;
  }
  if (h.numDataDims() != rank) {
    *error = "tile assignment has " + std::to_string(h.numDataDims()) + " data dimension(s) for a rank-" +
             std::to_string(rank) + " value";
    return std::nullopt;
  }
  if (h.numTiles() != mesh.numDevices()) {
    *error = "tile assignment spans " + std::to_string(h.numTiles()) + " devices, the mesh has " +
             std::to_string(mesh.numDevices());
    return std::nullopt;
  }
  std::vector<int64_t> pos = positionsOn(h, mesh);
  std::optional<LocalMesh> local = pos.empty() ? std::nullopt : analyzeTileAssignment(h.tileDims, pos);
  if (!local) {
    *error = "tile assignment is no layout of the mesh's devices";
    return std::nullopt;
  }
  t.dims.resize(rank);
  for (size_t d = 0; d < h.tileDims.size(); ++d)
    for (size_t axis : local->dimAxes[d]) {
      std::vector<AxisRef> refs = globalAxesOf(*local, axis, mesh, error);
      if (refs.empty()) return std::nullopt;
      std::vector<AxisRef> *into = nullptr;
      if (d < rank) {
        into = &t.dims[d].axes;
      } else {
        const std::string &type = h.subgroupTypes[d - rank];
        // A lone replicated subgroup is XLA's partial tiling
        // (`last_tile_dim_replicate`): implicit, not listed.
        if (type == "replicated" && h.subgroupTypes.size() > 1) into = &t.replicated;
        else if (type == "unreduced") into = &t.unreduced;
        else if (type == "manual") into = manual;
      }
      if (into) into->insert(into->end(), refs.begin(), refs.end());
    }
  if (!t.unreduced.empty() && !h.reductionKind.empty()) {
    t.unreducedKind = h.reductionKind;
    std::transform(t.unreducedKind.begin(), t.unreducedKind.end(), t.unreducedKind.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
  }
  return t;
}

bool importXlaShardings(Module &m, const XlaImportOptions &opts, Diagnostics &diags) {
  return Importer(m, opts, diags).run();
}

bool mergeXlaShardings(Module &m, Diagnostics &diags) { return Merger(m, diags).run(); }

}  // namespace autopart
