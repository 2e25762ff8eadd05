#include "fuzz/ShardingMutator.h"

#include "fuzz/MutationSites.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "ir/Module.h"

namespace autopart {

const char *expectationName(Expectation e) {
  switch (e) {
  case Expectation::Reject:
    return "reject";
  case Expectation::Accept:
    return "accept";
  case Expectation::Either:
    return "either";
  }
  return "?";
}

namespace {

using namespace fuzz;

struct Context {
  Module &m;
  std::vector<Site> sites;
  std::vector<OpId> meshes;
  Rng &rng;
  Mutant &out;
  std::string appended;  // text added at the end of the module body
};

// Picks a site where `pred` holds (given its sharding and mesh) and lets
// `edit` change it; records the edit.
bool mutateSite(Context &c, const std::function<bool(const Site &, const TensorSharding &, const Mesh &)> &pred,
                const std::function<void(const Site &, TensorSharding &, const Mesh &)> &edit) {
  std::vector<size_t> fits;
  for (size_t i = 0; i < c.sites.size(); ++i) {
    std::optional<Mesh> mesh = meshOf(c.m, c.sites[i].sharding);
    if (mesh && pred(c.sites[i], c.sites[i].sharding, *mesh)) fits.push_back(i);
  }
  if (fits.empty()) return false;
  const Site &site = c.sites[pickOne(c.rng, fits)];
  TensorSharding s = site.sharding;
  Mesh mesh = *meshOf(c.m, s);
  TensorSharding before = s;
  edit(site, s, mesh);
  writeSite(c.m, site, s);
  c.out.what = site.where + ": " + before.strBody() + " -> " + s.strBody();
  return true;
}

// Full axes of `mesh` (size > 1) that `s` does not use yet.
std::vector<MeshAxis> unusedAxes(const TensorSharding &s, const Mesh &mesh) {
  std::vector<MeshAxis> out;
  for (const MeshAxis &a : mesh.axes)
    if (a.size > 1 && !usesAxis(s, a.name)) out.push_back(a);
  return out;
}

// (dim, position) of every axis of the dimensions.
std::vector<std::pair<size_t, size_t>> dimAxes(const TensorSharding &s) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t d = 0; d < s.dims.size(); ++d)
    for (size_t i = 0; i < s.dims[d].axes.size(); ++i) out.emplace_back(d, i);
  return out;
}

std::vector<MeshAxis> axesWith(const Mesh &mesh, const std::function<bool(int64_t)> &sizeOk) {
  std::vector<MeshAxis> out;
  for (const MeshAxis &a : mesh.axes)
    if (sizeOk(a.size)) out.push_back(a);
  return out;
}

bool anySite(const Site &, const TensorSharding &, const Mesh &) { return true; }

// --- Invalid sharding edits ---------------------------------------------------

bool unknownAxis(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c, [](const Site &, const TensorSharding &s, const Mesh &) { return !s.dims.empty(); },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        auto at = dimAxes(s);
        if (!at.empty() && pick(c.rng, 2)) {
          auto [d, i] = pickOne(c.rng, at);
          s.dims[d].axes[i] = AxisRef{"fuzz_axis"};
        } else {
          s.dims[pick(c.rng, s.dims.size())].axes.push_back(AxisRef{"fuzz_axis"});
        }
      });
}

bool unknownMesh(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(c, anySite, [](const Site &, TensorSharding &s, const Mesh &) {
    s.meshName = "fuzz_mesh";
    s.inlineMesh.reset();
  });
}

bool repeatedAxisInDim(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c, [](const Site &, const TensorSharding &s, const Mesh &) { return !dimAxes(s).empty(); },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        auto [d, i] = pickOne(c.rng, dimAxes(s));
        std::vector<AxisRef> &axes = s.dims[d].axes;
        axes.insert(axes.begin() + i + pick(c.rng, 2), axes[i]);
      });
}

bool repeatedAxisAcrossDims(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c,
      [](const Site &, const TensorSharding &s, const Mesh &) { return s.dims.size() >= 2 && !dimAxes(s).empty(); },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        auto [d, i] = pickOne(c.rng, dimAxes(s));
        size_t other = (d + 1 + pick(c.rng, s.dims.size() - 1)) % s.dims.size();
        s.dims[other].axes.push_back(s.dims[d].axes[i]);
      });
}

bool repeatedAxisReplicated(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c,
      [](const Site &, const TensorSharding &s, const Mesh &) {
        return !dimAxes(s).empty() || !s.replicated.empty() || !s.unreduced.empty();
      },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        std::vector<AxisRef> used = s.allAxes();
        const AxisRef a = pickOne(c.rng, used);
        // Into replicated or unreduced; the list it is already in gets it twice.
        std::vector<AxisRef> &to = pick(c.rng, 2) ? s.replicated : s.unreduced;
        to.push_back(a);
      });
}

bool subAxisOverlap(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c,
      [](const Site &, const TensorSharding &, const Mesh &mesh) {
        return !axesWith(mesh, [](int64_t n) { return n >= 4 && n % 4 == 0; }).empty();
      },
      [&](const Site &, TensorSharding &s, const Mesh &mesh) {
        MeshAxis a = pickOne(c.rng, axesWith(mesh, [](int64_t n) { return n >= 4 && n % 4 == 0; }));
        dropAxis(s, a.name);
        // "a":(1)2 and "a":(1)4 share the major factor 2; on a=4 the second
        // is the full axis.
        AxisRef small{a.name, 1, 2};
        AxisRef big = a.size > 4 ? AxisRef{a.name, 1, 4} : AxisRef{a.name};
        someAxisList(s, c.rng).push_back(small);
        someAxisList(s, c.rng).push_back(big);
      });
}

bool subAxisNotDividing(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c,
      [](const Site &, const TensorSharding &, const Mesh &mesh) {
        return !axesWith(mesh, [](int64_t n) { return n >= 2; }).empty();
      },
      [&](const Site &, TensorSharding &s, const Mesh &mesh) {
        MeshAxis a = pickOne(c.rng, axesWith(mesh, [](int64_t n) { return n >= 2; }));
        dropAxis(s, a.name);
        int64_t odd = a.size % 3 ? 3 : 5;
        std::vector<AxisRef> bad = {
            {a.name, 1, odd},     // pre*size does not divide the axis
            {a.name, a.size, 2},  // next pre-size beyond the axis
            {a.name, 2, 1},       // size 1
            {a.name, 1, a.size},  // the full axis as a sub-axis
            {a.name, 0, 2},       // pre-size 0
        };
        someAxisList(s, c.rng).push_back(pickOne(c.rng, bad));
      });
}

bool subAxisMergeable(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c,
      [](const Site &, const TensorSharding &, const Mesh &mesh) {
        return !axesWith(mesh, [](int64_t n) { return n % 4 == 0; }).empty();
      },
      [&](const Site &, TensorSharding &s, const Mesh &mesh) {
        MeshAxis a = pickOne(c.rng, axesWith(mesh, [](int64_t n) { return n % 4 == 0; }));
        dropAxis(s, a.name);
        std::vector<AxisRef> &to = someAxisList(s, c.rng);
        to.push_back({a.name, 1, 2});
        to.push_back({a.name, 2, 2});
      });
}

bool rankMismatch(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c,
      [&](const Site &site, const TensorSharding &s, const Mesh &) {
        return site.type != kNoType && c.m.types.isTensor(site.type) &&
               int64_t(s.dims.size()) == c.m.types.rank(site.type);
      },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        if (!s.dims.empty() && pick(c.rng, 2))
          s.dims.erase(s.dims.begin() + pick(c.rng, s.dims.size()));
        else
          s.dims.push_back(DimSharding{});
      });
}

bool priorityOnClosedEmpty(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateSite(
      c, [](const Site &, const TensorSharding &s, const Mesh &) { return !s.dims.empty(); },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        DimSharding &d = s.dims[pick(c.rng, s.dims.size())];
        d.axes.clear();
        d.closed = true;
        d.priority = int64_t(pick(c.rng, 3));
      });
}

bool perValueCount(Context &c) {
  c.out.expect = Expectation::Reject;
  std::vector<OpId> ops;
  for (const Site &s : c.sites)
    if (c.m.names.str(s.attr) == "sdy.sharding" && s.ordinal == 0 && !c.m.isa(s.op, "func.func"))
      ops.push_back(s.op);
  if (ops.empty()) return false;
  OpId op = pickOne(c.rng, ops);
  std::vector<TensorSharding> all = c.m.attrs.get(c.m.attr(op, "sdy.sharding")).shardings;
  size_t before = all.size();
  if (all.size() > 1 && pick(c.rng, 2))
    all.erase(all.begin() + pick(c.rng, all.size()));
  else
    all.push_back(pickOne(c.rng, all));
  c.m.setAttr(op, "sdy.sharding", c.m.attrs.shardingPerValue(all));
  c.out.what = siteWhere(c.m, op, "sdy.sharding", 0) + ": sharding_per_value of " + std::to_string(before) +
               " -> " + std::to_string(all.size()) + " shardings for " + std::to_string(c.m.numResults(op)) +
               " results";
  return true;
}

// A private function taking a token or a tuple with a sharding. A token
// (not shaped) takes rank 0 and no replicated axes only; a tuple of one
// tensor is sharded as that tensor; a larger tuple cannot be sharded.
bool tokenOrTupleSharding(Context &c) {
  std::string meshName;
  std::string axis;
  for (OpId op : c.meshes) {
    const Mesh &mesh = *c.m.attrs.get(c.m.attr(op, "mesh")).mesh;
    meshName = std::string(c.m.attrs.stringValue(c.m.attr(op, "sym_name")));
    if (!mesh.axes.empty()) axis = mesh.axes.front().name;
    break;
  }
  if (meshName.empty()) return false;
  struct Variant {
    std::string type, dims;
    Expectation expect;
  };
  const std::string token = "!stablehlo.token", one = "tuple<tensor<8xf32>>", two = "tuple<tensor<8xf32>, tensor<f32>>";
  std::vector<Variant> variants = {
      {token, "[]", Expectation::Accept},  {token, "[{}]", Expectation::Reject},
      {one, "[{}]", Expectation::Accept},  {one, "[]", Expectation::Reject},
      {two, "[]", Expectation::Reject},    {two, "[{}]", Expectation::Reject},
  };
  if (!axis.empty()) {
    std::string a = "\"" + axis + "\"";
    variants.push_back({token, "[{" + a + "}]", Expectation::Reject});
    variants.push_back({token, "[], replicated={" + a + "}", Expectation::Reject});
    variants.push_back({one, "[{" + a + "}]", Expectation::Accept});
  }
  const Variant &v = pickOne(c.rng, variants);
  std::string name = v.type == token ? "fuzz_token" : "fuzz_tuple";
  std::string sharding = "#sdy.sharding<@" + meshName + ", " + v.dims + ">";
  c.appended = "  func.func private @" + name + "(%arg0: " + v.type + " {sdy.sharding = " + sharding + "}) -> " +
               v.type + " {\n    return %arg0 : " + v.type + "\n  }\n";
  c.out.expect = v.expect;
  c.out.what = "new func @" + name + " arg 0: " + v.type + " sharded " + sharding;
  return true;
}

// --- Mesh edits -----------------------------------------------------------------

bool mutateMesh(Context &c, const std::function<bool(const Mesh &)> &pred, const std::function<void(Mesh &)> &edit) {
  std::vector<OpId> fits;
  for (OpId op : c.meshes)
    if (pred(*c.m.attrs.get(c.m.attr(op, "mesh")).mesh)) fits.push_back(op);
  if (fits.empty()) return false;
  OpId op = pickOne(c.rng, fits);
  Mesh mesh = *c.m.attrs.get(c.m.attr(op, "mesh")).mesh;
  std::string before = mesh.str();
  edit(mesh);
  c.out.what = "sdy.mesh @" + std::string(c.m.attrs.stringValue(c.m.attr(op, "sym_name"))) + ": " + before +
               " -> " + mesh.str();
  c.m.setAttr(op, "mesh", c.m.attrs.mesh(std::move(mesh)));
  return true;
}

bool hasAxes(const Mesh &mesh) { return !mesh.axes.empty(); }

bool meshAxisSizeInvalid(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateMesh(c, hasAxes, [&](Mesh &mesh) {
    mesh.axes[pick(c.rng, mesh.axes.size())].size = pickOne(c.rng, std::vector<int64_t>{0, -1, -4});
  });
}

// An axis of 3 (or 5) devices: shardings on it no longer divide most
// dimensions, which Shardy allows (padding); sub-axes or manual axes of it
// may stop dividing, which it does not.
bool meshAxisResized(Context &c) {
  c.out.expect = Expectation::Either;
  return mutateMesh(c, hasAxes, [&](Mesh &mesh) {
    MeshAxis &a = mesh.axes[pick(c.rng, mesh.axes.size())];
    a.size = a.size % 3 ? 3 : 5;
    mesh.deviceIds.clear();
  });
}

bool meshDuplicateAxis(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateMesh(c, hasAxes, [&](Mesh &mesh) {
    const MeshAxis a = mesh.axes[pick(c.rng, mesh.axes.size())];
    if (mesh.axes.size() >= 2 && pick(c.rng, 2)) {
      // Another axis renamed to it (same device count).
      for (MeshAxis &b : mesh.axes)
        if (b.name != a.name) {
          b.name = a.name;
          break;
        }
    } else {
      mesh.axes.insert(mesh.axes.begin() + pick(c.rng, mesh.axes.size() + 1), MeshAxis{a.name, 1});
    }
  });
}

bool deviceIdsWrongCount(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateMesh(c, hasAxes, [&](Mesh &mesh) {
    int64_t n = mesh.numDevices();
    int64_t count = pick(c.rng, 2) ? n + 1 : std::max<int64_t>(n - 1, 0);
    if (count == 0) count = 2;
    mesh.deviceIds.resize(size_t(count));
    std::iota(mesh.deviceIds.rbegin(), mesh.deviceIds.rend(), 0);
  });
}

bool deviceIdsNotPermutation(Context &c) {
  c.out.expect = Expectation::Reject;
  return mutateMesh(
      c, [](const Mesh &mesh) { return hasAxes(mesh) && mesh.numDevices() >= 2; },
      [&](Mesh &mesh) {
        int64_t n = mesh.numDevices();
        mesh.deviceIds.resize(size_t(n));
        std::iota(mesh.deviceIds.rbegin(), mesh.deviceIds.rend(), 0);
        size_t i = pick(c.rng, size_t(n));
        switch (pick(c.rng, 3)) {
        case 0:  // a duplicate
          mesh.deviceIds[i] = mesh.deviceIds[(i + 1) % size_t(n)];
          break;
        case 1:  // out of range
          mesh.deviceIds[i] = n + int64_t(i);
          break;
        default:  // negative
          mesh.deviceIds[i] = -1;
          break;
        }
      });
}

// --- Valid edits (free sites only) ----------------------------------------------

bool validOtherAxis(Context &c) {
  c.out.expect = Expectation::Accept;
  return mutateSite(
      c,
      [](const Site &site, const TensorSharding &s, const Mesh &mesh) {
        return site.free && !s.dims.empty() && !unusedAxes(s, mesh).empty();
      },
      [&](const Site &, TensorSharding &s, const Mesh &mesh) {
        MeshAxis b = pickOne(c.rng, unusedAxes(s, mesh));
        std::vector<std::pair<size_t, size_t>> full;
        for (auto [d, i] : dimAxes(s))
          if (!s.dims[d].axes[i].isSubAxis()) full.emplace_back(d, i);
        if (!full.empty()) {
          auto [d, i] = pickOne(c.rng, full);
          s.dims[d].axes[i] = AxisRef{b.name};
        } else {
          s.dims[pick(c.rng, s.dims.size())].axes.push_back(AxisRef{b.name});
        }
      });
}

bool validUnshardDim(Context &c) {
  c.out.expect = Expectation::Accept;
  return mutateSite(
      c, [](const Site &site, const TensorSharding &s, const Mesh &) { return site.free && !dimAxes(s).empty(); },
      [&](const Site &, TensorSharding &s, const Mesh &) {
        auto [d, i] = pickOne(c.rng, dimAxes(s));
        (void)i;
        s.dims[d].axes.clear();
        if (s.dims[d].closed) s.dims[d].priority.reset();
      });
}

// Candidate moves of a full axis from one dimension to another whose size
// it divides.
std::vector<std::pair<size_t, size_t>> divisibleMoves(const TensorSharding &s, const Mesh &mesh,
                                                      const std::vector<int64_t> &shape) {
  std::vector<std::pair<size_t, size_t>> out;
  if (shape.size() != s.dims.size()) return out;
  for (auto [d, i] : dimAxes(s)) {
    const AxisRef &a = s.dims[d].axes[i];
    if (a.isSubAxis()) continue;
    for (size_t j = 0; j < shape.size(); ++j)
      if (j != d && shape[j] > 0 && shape[j] % (s.dims[j].shardCount(mesh) * a.size(mesh)) == 0) {
        out.emplace_back(d * 1000 + i, j);
      }
  }
  return out;
}

bool validMoveAxis(Context &c) {
  c.out.expect = Expectation::Accept;
  return mutateSite(
      c,
      [&](const Site &site, const TensorSharding &s, const Mesh &mesh) {
        return site.free && !divisibleMoves(s, mesh, shapeOf(c.m, site.type)).empty();
      },
      [&](const Site &site, TensorSharding &s, const Mesh &mesh) {
        auto [from, j] = pickOne(c.rng, divisibleMoves(s, mesh, shapeOf(c.m, site.type)));
        size_t d = from / 1000, i = from % 1000;
        AxisRef a = s.dims[d].axes[i];
        s.dims[d].axes.erase(s.dims[d].axes.begin() + i);
        if (s.dims[d].axes.empty() && s.dims[d].closed) s.dims[d].priority.reset();
        s.dims[j].axes.push_back(a);
      });
}

bool validDevicePermutation(Context &c) {
  c.out.expect = Expectation::Accept;
  return mutateMesh(
      c, [](const Mesh &mesh) { return hasAxes(mesh) && mesh.numDevices() >= 2 && mesh.numDevices() <= 4096; },
      [&](Mesh &mesh) {
        int64_t n = mesh.numDevices();
        mesh.deviceIds.resize(size_t(n));
        std::iota(mesh.deviceIds.begin(), mesh.deviceIds.end(), 0);
        // Any order but the identity (which Shardy wants left implicit).
        while (std::is_sorted(mesh.deviceIds.begin(), mesh.deviceIds.end()))
          std::shuffle(mesh.deviceIds.begin(), mesh.deviceIds.end(), c.rng);
      });
}

// Either: an unused axis added to a dimension it does not divide.
bool nonDividingAxis(Context &c) {
  c.out.expect = Expectation::Either;
  auto moves = [&](const Site &site, const TensorSharding &s, const Mesh &mesh) {
    std::vector<std::pair<size_t, std::string>> out;
    std::vector<int64_t> shape = shapeOf(c.m, site.type);
    if (shape.size() != s.dims.size()) return out;
    for (const MeshAxis &a : unusedAxes(s, mesh))
      for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] > 0 && shape[d] % (s.dims[d].shardCount(mesh) * a.size) != 0) out.emplace_back(d, a.name);
    return out;
  };
  return mutateSite(
      c, [&](const Site &site, const TensorSharding &s, const Mesh &mesh) { return !moves(site, s, mesh).empty(); },
      [&](const Site &site, TensorSharding &s, const Mesh &mesh) {
        auto [d, name] = pickOne(c.rng, moves(site, s, mesh));
        s.dims[d].axes.push_back(AxisRef{name});
      });
}

struct Kind {
  const char *name;
  bool (*apply)(Context &);
};

const std::vector<Kind> &kinds() {
  static const std::vector<Kind> k = {
      {"unknown-axis", unknownAxis},
      {"unknown-mesh", unknownMesh},
      {"non-dividing-axis", nonDividingAxis},
      {"repeated-axis-in-dim", repeatedAxisInDim},
      {"repeated-axis-across-dims", repeatedAxisAcrossDims},
      {"repeated-axis-replicated", repeatedAxisReplicated},
      {"sub-axis-overlap", subAxisOverlap},
      {"sub-axis-not-dividing", subAxisNotDividing},
      {"sub-axis-mergeable", subAxisMergeable},
      {"rank-mismatch", rankMismatch},
      {"priority-closed-empty", priorityOnClosedEmpty},
      {"per-value-count", perValueCount},
      {"token-tuple-sharding", tokenOrTupleSharding},
      {"mesh-axis-size-invalid", meshAxisSizeInvalid},
      {"mesh-axis-resized", meshAxisResized},
      {"mesh-duplicate-axis", meshDuplicateAxis},
      {"device-ids-wrong-count", deviceIdsWrongCount},
      {"device-ids-not-permutation", deviceIdsNotPermutation},
      {"valid-other-axis", validOtherAxis},
      {"valid-unshard-dim", validUnshardDim},
      {"valid-move-axis", validMoveAxis},
      {"valid-device-permutation", validDevicePermutation},
  };
  return k;
}

// Inserts `text` before the `}` closing the module (or at the end when the
// program has no `module`).
std::string appendToModule(std::string program, const std::string &text, bool hasModule) {
  size_t close = hasModule ? program.rfind('}') : std::string::npos;
  if (close == std::string::npos) return program + text;
  program.insert(close, text);
  return program;
}

}  // namespace

const std::vector<std::string> &mutationKinds() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Kind &k : kinds()) n.push_back(k.name);
    return n;
  }();
  return names;
}

bool printProgram(const std::string &program, std::string &out) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(program, "base.mlir", &err);
  if (!m) return false;
  out = printModule(*m);
  return true;
}

bool mutateProgram(const std::string &program, const std::string &kind, Rng &rng, Mutant &out) {
  const Kind *k = nullptr;
  for (const Kind &candidate : kinds())
    if (kind == candidate.name) k = &candidate;
  if (!k) return false;
  ParseError err;
  std::unique_ptr<Module> m = parseModule(program, "base.mlir", &err);
  if (!m) return false;
  Context c{*m, collectSites(*m), {}, rng, out, {}};
  m->walk(m->top, [&](OpId op) {
    AttrId a = m->attr(op, "mesh");
    if (m->isa(op, "sdy.mesh") && a != kNoAttr && m->attrs.get(a).mesh) c.meshes.push_back(op);
  });
  out = Mutant{};
  out.kind = kind;
  if (!k->apply(c)) return false;
  out.text = printModule(*m);
  if (!c.appended.empty()) out.text = appendToModule(std::move(out.text), c.appended, m->moduleBodyBegin != kNone);
  return true;
}

}  // namespace autopart
