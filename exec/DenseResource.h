// `dense_resource<key>` constants: their data is a blob in the file's
// resource block (Module::resourceBlobs), hex text whose first 4 bytes are
// the blob's alignment and the rest the little-endian elements:
//
//   %w = stablehlo.constant dense_resource<w0> : tensor<2xf32>
//   {-# dialect_resources: { builtin: { w0: "0x040000000000803F00000040" } } #-}
//     -> [1.0, 2.0]
//
// A key the file has no blob for (MLIR prints `dense_resource<__elided__>`
// when it drops large blobs) is an error: there is no data to run with.
#pragma once

#include <string_view>

#include "exec/Tensor.h"
#include "ir/Module.h"

namespace autopart::exec {

// Throws std::runtime_error when the blob is missing or has the wrong size.
TensorPtr decodeResource(const Module &m, std::string_view key, const DType &dtype, const std::vector<int64_t> &shape);

}  // namespace autopart::exec
