// Decoding of `dense<...>` literal bodies (ir/Attributes.h keeps their text)
// into executor tensors:
//
//   dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>      nested lists
//   dense<0.0> : tensor<3xf32>                      a splat
//   dense<"0x0000803F"> : tensor<f32>               little-endian hex bytes
//   dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>    complex (re, im)
//   dense<[true, false]>, dense<0x7FC00000> : tensor<f32> (bits), nan, -inf
#pragma once

#include <string_view>

#include "exec/Tensor.h"

namespace autopart::exec {

// Throws std::runtime_error describing what could not be read.
TensorPtr decodeDense(std::string_view body, const DType &dtype, const std::vector<int64_t> &shape);

}  // namespace autopart::exec
