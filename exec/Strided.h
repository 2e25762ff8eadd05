// Strided copies, the one loop behind broadcast_in_dim, transpose, slice,
// reverse, pad and concatenate: walk the destination in row-major order and
// read the source at `offset + sum(index[d] * srcStrides[d])` (strides may be
// 0 for broadcast or negative for reverse). The innermost dimension is a
// typed loop per element width, chosen once per call.
//
//   transpose 2x3 -> 3x2: outShape {3, 2}, srcStrides {1, 3}
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace autopart::exec {

void stridedCopy(unsigned char *dst, const std::vector<int64_t> &dstShape, const std::vector<int64_t> &dstStrides,
                 const unsigned char *src, int64_t srcOffset, const std::vector<int64_t> &srcStrides, size_t width);

// The same with a dense row-major destination.
inline void stridedCopy(unsigned char *dst, const std::vector<int64_t> &outShape, const unsigned char *src,
                        int64_t srcOffset, const std::vector<int64_t> &srcStrides, size_t width) {
  std::vector<int64_t> ds(outShape.size(), 1);
  for (int64_t i = int64_t(outShape.size()) - 2; i >= 0; --i) ds[i] = ds[i + 1] * outShape[i + 1];
  stridedCopy(dst, outShape, ds, src, srcOffset, srcStrides, width);
}

}  // namespace autopart::exec
