// `-sdy-inline-meshes`: every sharding that names an `sdy.mesh` symbol gets
// that mesh written inline, and the `sdy.mesh` ops are erased, for consumers
// that read shardings without a symbol table.
//
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
//   -> %arg0 {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>}
//
// Meshes referenced from other attributes (a StableHLO collective's
// `replica_group_mesh_axes<mesh = @m ...>`) are not rewritten yet: a module
// with such a reference keeps its `sdy.mesh` ops.
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

bool inlineMeshes(Module &m, const PassOptions &, Diagnostics &) {
  if (m.top == kNone) return true;
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
