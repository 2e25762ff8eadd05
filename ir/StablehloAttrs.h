// Structured readers for StableHLO's dimension-number attributes, so that no
// stage re-parses attribute text on its own:
//
//   dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0],
//       rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2],
//       rhs_contracting_dimensions = [1]>
//     -> DotDims{lhsBatch {0}, rhsBatch {0}, lhsContract {2}, rhsContract {1}}
//
//   dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
//     -> ConvDims{inputBatch 0, inputFeature 3, inputSpatial {1, 2},
//                 kernelInput 2, kernelOutput 3, kernelSpatial {0, 1},
//                 outputBatch 0, outputFeature 3, outputSpatial {1, 2}}
#pragma once

#include <optional>
#include <vector>

#include "ir/Module.h"

namespace autopart {

struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
};

struct ConvDims {
  int64_t inputBatch = 0, inputFeature = 0;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInput = 0, kernelOutput = 0;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = 0, outputFeature = 0;
  std::vector<int64_t> outputSpatial;
};

// For stablehlo.dot_general and stablehlo.dot (matrix/vector semantics).
std::optional<DotDims> getDotDims(const Module &m, OpId op);
// For stablehlo.convolution; nullopt when the attribute is malformed.
std::optional<ConvDims> getConvDims(const Module &m, OpId op);
// Parses the `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` text.
std::optional<ConvDims> parseConvDims(std::string_view text);

}  // namespace autopart
