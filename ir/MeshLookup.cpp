#include "ir/MeshLookup.h"

namespace autopart {

const Mesh *meshNamed(const Module &m, std::string_view name) {
  OpId op = m.lookupSymbol(name);
  if (op == kNone || !m.isa(op, "sdy.mesh")) return nullptr;
  AttrId a = m.attr(op, "mesh");
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Mesh ? m.attrs.get(a).mesh.get() : nullptr;
}

const Mesh *shardingMesh(const Module &m, const TensorSharding &s) {
  return s.inlineMesh ? &*s.inlineMesh : meshNamed(m, s.meshName);
}

}  // namespace autopart
