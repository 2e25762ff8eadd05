#include "sim/LocalSize.h"

namespace autopart {

int64_t localElements(const TypeTable &types, TypeId t, const TensorSharding *s, const Mesh *mesh) {
  if (t == kNoType) return 0;
  if (!types.isTensor(t)) return types.numElements(t);
  if (types.hasDynamicDim(t)) return 0;
  const std::vector<int64_t> &shape = types.shape(t);
  int64_t n = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t extent = shape[d];
    if (s && mesh && d < s->dims.size()) {
      int64_t parts = s->dims[d].shardCount(*mesh);
      if (parts > 1) extent = (extent + parts - 1) / parts;
    }
    n *= extent;
  }
  return n;
}

int64_t localBytes(const TypeTable &types, TypeId t, const TensorSharding *s, const Mesh *mesh) {
  if (t == kNoType) return 0;
  if (types.get(t).kind == TypeKind::Tuple) {
    int64_t b = 0;
    for (TypeId member : types.get(t).members) b += localBytes(types, member, nullptr, nullptr);
    return b;
  }
  int64_t elems = localElements(types, t, s, mesh);
  uint32_t bits = types.elementBits(t);
  if (bits == 0) return 0;
  return (elems * int64_t(bits) + 7) / 8;
}

}  // namespace autopart
