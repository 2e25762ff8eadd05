// `-sdy-import-func-calls`: every `func.call` becomes an
// `sdy.named_computation` named after its callee, holding a copy of the
// callee's body; the callees are then erased. The named computation's
// in_shardings come from the callee's argument shardings, its out_shardings
// from the call's `sdy.sharding`; with `add-data-flow-edges-on-named-
// computations` (default true) each block argument and result gets its
// `sdy.data_flow_edge`:
//
//   %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
//   func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> { ... }
//   ->
//   %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {
//     %2 = sdy.data_flow_edge %arg1 : tensor<8xf32>
//     ... sdy.return ...
//   } : (tensor<8xf32>) -> tensor<8xf32>
//   %1 = sdy.data_flow_edge %0 : tensor<8xf32>
#pragma once

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

// Returns false (with an error) on a call cycle or an unknown callee.
bool importFuncCalls(Module &m, bool addDataFlowEdges, Diagnostics &diags);

}  // namespace autopart
