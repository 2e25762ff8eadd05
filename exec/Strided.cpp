#include "exec/Strided.h"

#include <cstring>

namespace autopart::exec {
namespace {

template <size_t W> struct Elem {
  unsigned char b[W];
};

template <typename E>
void copyTyped(E *dst, const std::vector<int64_t> &shape, const std::vector<int64_t> &dstStrides, const E *src,
               int64_t srcOffset, const std::vector<int64_t> &srcStrides) {
  size_t rank = shape.size();
  for (int64_t d : shape)
    if (d == 0) return;
  if (rank == 0) {
    dst[0] = src[srcOffset];
    return;
  }
  std::vector<int64_t> idx(rank, 0);
  int64_t inner = shape[rank - 1], si = srcStrides[rank - 1], di = dstStrides[rank - 1];
  int64_t s = srcOffset, dpos = 0;
  while (true) {
    if (si == 1 && di == 1) {
      std::memcpy(dst + dpos, src + s, size_t(inner) * sizeof(E));
    } else {
      for (int64_t i = 0; i < inner; ++i) dst[dpos + i * di] = src[s + i * si];
    }
    int64_t d = int64_t(rank) - 2;
    for (; d >= 0; --d) {
      s += srcStrides[d];
      dpos += dstStrides[d];
      if (++idx[d] < shape[d]) break;
      s -= srcStrides[d] * shape[d];
      dpos -= dstStrides[d] * shape[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

void stridedCopy(unsigned char *dst, const std::vector<int64_t> &dstShape, const std::vector<int64_t> &dstStrides,
                 const unsigned char *src, int64_t srcOffset, const std::vector<int64_t> &srcStrides, size_t width) {
  switch (width) {
    case 1: return copyTyped((Elem<1> *)dst, dstShape, dstStrides, (const Elem<1> *)src, srcOffset, srcStrides);
    case 2: return copyTyped((Elem<2> *)dst, dstShape, dstStrides, (const Elem<2> *)src, srcOffset, srcStrides);
    case 4: return copyTyped((Elem<4> *)dst, dstShape, dstStrides, (const Elem<4> *)src, srcOffset, srcStrides);
    case 8: return copyTyped((Elem<8> *)dst, dstShape, dstStrides, (const Elem<8> *)src, srcOffset, srcStrides);
    case 16: return copyTyped((Elem<16> *)dst, dstShape, dstStrides, (const Elem<16> *)src, srcOffset, srcStrides);
    default: break;
  }
}

}  // namespace autopart::exec
