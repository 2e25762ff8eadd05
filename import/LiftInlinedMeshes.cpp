#include "import/LiftInlinedMeshes.h"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/Pass.h"
#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

class Lifter {
public:
  explicit Lifter(Module &m) : m_(m), body_(m.regions[m.region(m.top, 0)].blocks.front()) {}

  size_t run() {
    for (OpId op : m_.blocks[body_].ops)
      if (AttrId a = m_.attr(op, "sym_name"); a != kNoAttr) used_.insert(std::string(m_.attrs.stringValue(a)));
    OpId lastMesh = kNone;
    for (OpId op : std::vector<OpId>(m_.blocks[body_].ops)) {
      if (!m_.isa(op, "sdy.mesh")) continue;
      AttrId meshAttr = m_.attr(op, "mesh");
      if (meshAttr == kNoAttr || m_.attrs.kind(meshAttr) != AttrKind::Mesh) continue;
      const Mesh &mesh = *m_.attrs.get(meshAttr).mesh;
      std::string name(m_.attrs.stringValue(m_.attr(op, "sym_name")));
      if (const std::string *first = find(mesh)) {
        renamed_[name] = *first;
        used_.erase(name);
        m_.eraseOp(op);
        continue;
      }
      known_.push_back({mesh, name});
      lastMesh = op;
    }
    // New meshes follow the existing ones (or open the module), in order.
    insertBefore_ = kNone;
    const std::vector<OpId> &ops = m_.blocks[body_].ops;
    if (lastMesh == kNone) {
      insertBefore_ = ops.empty() ? kNone : ops.front();
    } else {
      for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i] == lastMesh) insertBefore_ = i + 1 < ops.size() ? ops[i + 1] : kNone;
    }
    size_t changed = rewriteShardings(m_, [&](TensorSharding &s) { return lift(s); });
    // Then the meshes of StableHLO collectives' mesh-axes replica groups,
    // collective kind by collective kind.
    for (std::string_view kind : {"stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.reduce_scatter",
                                  "stablehlo.all_to_all", "stablehlo.collective_broadcast"})
      m_.walk(m_.top, [&](OpId op) {
        if (m_.isa(op, kind) && liftReplicaGroups(op)) ++changed;
      });
    // Every mesh symbol also carries its StableHLO spelling.
    for (OpId op : m_.blocks[body_].ops)
      if (m_.isa(op, "sdy.mesh") && !m_.hasAttr(op, "stablehlo.mesh"))
        if (AttrId mesh = m_.attr(op, "mesh"); mesh != kNoAttr && m_.attrs.kind(mesh) == AttrKind::Mesh)
          m_.setAttr(op, "stablehlo.mesh", stablehloMeshDict(*m_.attrs.get(mesh).mesh));
    return changed;
  }

private:
  Module &m_;
  BlockId body_;
  std::vector<std::pair<Mesh, std::string>> known_;
  std::map<std::string, std::string> renamed_;
  std::set<std::string> used_;
  OpId insertBefore_ = kNone;
  std::map<AttrId, std::string> liftedStablehlo_;  // interned stablehlo mesh -> its new symbol

  const std::string *find(const Mesh &mesh) const {
    for (const auto &[known, name] : known_)
      if (known == mesh) return &name;
    return nullptr;
  }

  std::string uniqueName(const std::string &base) {
    if (!used_.count(base)) return base;
    for (int i = 0;; ++i) {
      std::string candidate = base + "_" + std::to_string(i);
      if (!used_.count(candidate)) return candidate;
    }
  }

  const std::string &addMesh(const Mesh &mesh) {
    std::string base = mesh.isMaximal() ? "maximal_mesh_" + std::to_string(mesh.deviceIds.front())
                       : mesh.axes.empty() ? std::string("empty_mesh")
                                           : std::string("mesh");
    std::string name = uniqueName(base);
    used_.insert(name);
    OpId op = m_.createOp("sdy.mesh", {}, {},
                          {{m_.names.get("mesh"), m_.attrs.mesh(mesh)}, {m_.names.get("sym_name"), m_.attrs.string(name)}});
    m_.insertOp(body_, op, insertBefore_);
    known_.push_back({mesh, name});
    return known_.back().second;
  }

  // `#stablehlo.replica_group_mesh_axes<mesh = M, axes = [...]>`: an inline
  // `#stablehlo.mesh<axes = [...]>` becomes a new `sdy.mesh` (one per
  // distinct mesh), a reference to a merged mesh is renamed.
  bool liftReplicaGroups(OpId op) {
    AttrId groups = m_.attr(op, "replica_groups");
    if (groups == kNoAttr || m_.attrs.kind(groups) != AttrKind::DialectStruct ||
        m_.attrs.get(groups).dialectName != "stablehlo.replica_group_mesh_axes")
      return false;
    AttrId meshAttr = m_.attrs.field(groups, "mesh");
    if (meshAttr == kNoAttr) return false;
    std::string name;
    if (m_.attrs.kind(meshAttr) == AttrKind::SymbolRef) {
      std::string_view ref = m_.attrs.get(meshAttr).text;
      if (ref.starts_with("@")) ref.remove_prefix(1);
      auto it = renamed_.find(std::string(ref));
      if (it == renamed_.end()) return false;
      name = it->second;
    } else if (auto it = liftedStablehlo_.find(meshAttr); it != liftedStablehlo_.end()) {
      name = it->second;
    } else {
      std::optional<Mesh> mesh = stablehloMesh(meshAttr);
      if (!mesh) return false;
      name = uniqueName("mesh");
      used_.insert(name);
      OpId meshOp = m_.createOp("sdy.mesh", {}, {},
                                {{m_.names.get("mesh"), m_.attrs.mesh(*mesh)},
                                 {m_.names.get("sym_name"), m_.attrs.string(name)}});
      m_.insertOp(body_, meshOp, insertBefore_);
      liftedStablehlo_[meshAttr] = name;
    }
    const AttrStorage &g = m_.attrs.get(groups);
    std::vector<std::pair<NameId, AttrId>> entries;
    for (size_t i = 0; i < g.keys.size(); ++i)
      entries.push_back({g.keys[i], m_.names.str(g.keys[i]) == "mesh" ? m_.attrs.symbolRef("@" + name) : g.elems[i]});
    m_.setAttr(op, "replica_groups", m_.attrs.dialectStruct(g.dialectName, std::move(entries)));
    return true;
  }

  // `{axes = [{name = "a", size = 4 : i64}, ...], device_ids = dense<[...]> : tensor<Nxi64>}`
  // (device ids only when the mesh lists them).
  AttrId stablehloMeshDict(const Mesh &mesh) {
    TypeId i64 = m_.types.scalar("i64");
    std::vector<AttrId> axes;
    for (const MeshAxis &axis : mesh.axes)
      axes.push_back(m_.attrs.dict({{m_.names.get("name"), m_.attrs.string(axis.name)},
                                    {m_.names.get("size"), m_.attrs.integer(axis.size, i64)}}));
    std::vector<std::pair<NameId, AttrId>> fields = {{m_.names.get("axes"), m_.attrs.array(std::move(axes))}};
    if (!mesh.deviceIds.empty()) {
      std::string body = "[";
      for (size_t i = 0; i < mesh.deviceIds.size(); ++i) body += (i ? ", " : "") + std::to_string(mesh.deviceIds[i]);
      body += "]";
      TypeId type = m_.types.tensor({int64_t(mesh.deviceIds.size())}, i64);
      fields.push_back({m_.names.get("device_ids"), m_.attrs.denseElementsOwned("dense", body, type)});
    }
    return m_.attrs.dict(std::move(fields));
  }

  // `#stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "z", size = 4>, ...]>`.
  std::optional<Mesh> stablehloMesh(AttrId a) const {
    if (m_.attrs.kind(a) != AttrKind::DialectStruct || m_.attrs.get(a).dialectName != "stablehlo.mesh")
      return std::nullopt;
    Mesh mesh;
    AttrId axes = m_.attrs.field(a, "axes");
    if (axes == kNoAttr) return mesh;
    for (AttrId axis : m_.attrs.get(axes).elems) {
      AttrId n = m_.attrs.field(axis, "name"), size = m_.attrs.field(axis, "size");
      if (n == kNoAttr || size == kNoAttr) return std::nullopt;
      mesh.axes.push_back({std::string(m_.attrs.stringValue(n)), m_.attrs.get(size).intValue});
    }
    return mesh;
  }

  bool lift(TensorSharding &s) {
    if (s.inlineMesh) {
      const std::string *name = find(*s.inlineMesh);
      s.meshName = name ? *name : addMesh(*s.inlineMesh);
      s.inlineMesh.reset();
      return true;
    }
    auto it = renamed_.find(s.meshName);
    if (it == renamed_.end()) return false;
    s.meshName = it->second;
    return true;
  }
};

PassRegistration reg("sdy-lift-inlined-meshes",
                     "Replace inlined meshes in shardings by sdy.mesh symbols and merge identical meshes",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       liftInlinedMeshes(m);
                       return true;
                     });

}  // namespace

size_t liftInlinedMeshes(Module &m) {
  if (m.top == kNone) return 0;
  return Lifter(m).run();
}

}  // namespace autopart
