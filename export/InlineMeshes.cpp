// `-sdy-inline-meshes`: every sharding that names an `sdy.mesh` symbol gets
// that mesh written inline, and the `sdy.mesh` ops are erased, for consumers
// that read shardings without a symbol table.
//
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
//   -> %arg0 {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>}
//
// A StableHLO collective's mesh-axes replica groups name a mesh too; the
// reference becomes the mesh in StableHLO's spelling:
//
//   replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_1, axes = [...]>
//   -> replica_groups = #stablehlo.replica_group_mesh_axes<mesh =
//        #stablehlo.mesh<axes=[<name = "x", size = 2>], device_ids=dense<[1, 0]> : tensor<2xi64>>, axes = [...]>
//
// A module that still names a mesh elsewhere (an attribute autopart does not
// know) keeps its `sdy.mesh` ops.
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ir/MeshLookup.h"
#include "ir/Pass.h"
#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

bool referencedOutsideShardings(const Module &m) {
  bool found = false;
  m.walk(m.top, [&](OpId op) {
    for (const NamedAttr &a : m.attributes(op))
      if (m.attrs.get(a.value).kind == AttrKind::Opaque || m.attrs.get(a.value).kind == AttrKind::DialectStruct)
        found |= m.attrs.str(a.value).find("mesh = @") != std::string::npos;
  });
  return found;
}

// `#stablehlo.mesh<axes=[<name = "x", size = 2>], device_ids=dense<[1, 0]> : tensor<2xi64>>`
// (device ids only when the mesh lists them), as StableHLO prints it.
std::string stablehloMesh(const Mesh &mesh) {
  std::string out = "#stablehlo.mesh<axes=[";
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    out += (i ? ", " : "") + std::string("<name = \"") + mesh.axes[i].name + "\", size = " +
           std::to_string(mesh.axes[i].size) + ">";
  out += "]";
  if (!mesh.deviceIds.empty()) {
    out += ", device_ids=dense<[";
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i) out += (i ? ", " : "") + std::to_string(mesh.deviceIds[i]);
    out += "]> : tensor<" + std::to_string(mesh.deviceIds.size()) + "xi64>";
  }
  return out + ">";
}

// Rewrites every `replica_group_mesh_axes<mesh = @name ...>` attribute of
// `op` whose mesh is a known `sdy.mesh`.
void inlineReplicaGroupMeshes(Module &m, OpId op) {
  std::span<const NamedAttr> attrs = m.attributes(op);
  for (const NamedAttr &a : std::vector<NamedAttr>(attrs.begin(), attrs.end())) {
    const AttrStorage &groups = m.attrs.get(a.value);
    if (groups.kind != AttrKind::DialectStruct || groups.dialectName != "stablehlo.replica_group_mesh_axes") continue;
    AttrId ref = m.attrs.field(a.value, "mesh");
    if (ref == kNoAttr || m.attrs.kind(ref) != AttrKind::SymbolRef) continue;
    std::string_view name = m.attrs.get(ref).text;
    if (name.starts_with("@")) name.remove_prefix(1);
    const Mesh *mesh = meshNamed(m, std::string(name));
    if (!mesh) continue;
    AttrId inlined = m.attrs.opaque(stablehloMesh(*mesh));
    std::vector<std::pair<NameId, AttrId>> entries;
    const AttrStorage &g = m.attrs.get(a.value);
    for (size_t i = 0; i < g.keys.size(); ++i)
      entries.push_back({g.keys[i], m.names.str(g.keys[i]) == "mesh" ? inlined : g.elems[i]});
    std::string dialectName = g.dialectName;
    m.setAttr(op, m.names.str(a.name), m.attrs.dialectStruct(dialectName, std::move(entries)));
  }
}

bool inlineMeshes(Module &m, const PassOptions &, Diagnostics &) {
  if (m.top == kNone) return true;
  m.walk(m.top, [&](OpId op) { inlineReplicaGroupMeshes(m, op); });
  rewriteShardings(m, [&](TensorSharding &s) {
    if (s.meshName.empty()) return false;
    const Mesh *mesh = meshNamed(m, s.meshName);
    if (!mesh) return false;
    s.inlineMesh = *mesh;
    s.meshName.clear();
    return true;
  });
  if (referencedOutsideShardings(m)) return true;
  std::vector<OpId> meshes;
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, "sdy.mesh")) meshes.push_back(op);
  });
  for (OpId op : meshes) m.eraseOp(op);
  return true;
}

PassRegistration reg("sdy-inline-meshes", "Writes referenced meshes inline into shardings and erases sdy.mesh ops",
                     inlineMeshes);

}  // namespace

}  // namespace autopart
