// `-sdy-explicit-gather-scatter-batching`: a gather (or scatter) whose
// index component for operand dimension 0 is an iota over indices
// dimension 0 (row i reads row i) is a batched gather written implicitly.
// The pass makes the batch explicit, so propagation sees a batching factor
// instead of an indexed dimension:
//
//   %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
//   %idx = stablehlo.concatenate %iota, %offset, dim = 1
//   "stablehlo.gather"(%operand, %idx) <collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>
//   ->
//   "stablehlo.gather"(%operand, %offset) <operand_batching_dims = [0],
//       start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>
//
// The iota may pass through reshapes, broadcasts, clamps and selects; the
// remaining index components are the concatenation's other inputs, or
// slices of the indices around the removed component.
#pragma once

#include "ir/Module.h"

namespace autopart {

// Returns the number of gathers and scatters rewritten.
size_t makeGatherScatterBatchingExplicit(Module &m);

}  // namespace autopart
