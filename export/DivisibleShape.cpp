#include "export/DivisibleShape.h"

#include "ir/MeshLookup.h"

namespace autopart {

std::vector<int64_t> divisibleShape(const std::vector<int64_t> &shape, const TensorSharding &s,
                                    const Mesh &mesh) {
  std::vector<int64_t> out = shape;
  for (size_t d = 0; d < out.size() && d < s.dims.size(); ++d) {
    if (out[d] == kDynamic) continue;
    int64_t count = s.dims[d].shardCount(mesh);
    if (count > 1 && out[d] % count != 0) out[d] = (out[d] + count - 1) / count * count;
  }
  return out;
}

TypeId divisibleType(Module &m, TypeId type, const TensorSharding *s) {
  return divisibleType(m, type, s, s ? shardingMesh(m, *s) : nullptr);
}

TypeId divisibleType(Module &m, TypeId type, const TensorSharding *s, const Mesh *mesh) {
  if (!s || !mesh || !m.types.isTensor(type) || s->isFullyReplicated()) return type;
  const std::vector<int64_t> &shape = m.types.shape(type);
  std::vector<int64_t> padded = divisibleShape(shape, *s, *mesh);
  if (padded == shape) return type;
  return m.types.tensor(padded, m.types.elementType(type));
}

}  // namespace autopart
