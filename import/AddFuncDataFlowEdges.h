// `-sdy-add-func-data-flow-edges`: for propagation across calls without
// inlining, every argument of a non-main function and every call result
// gets an `sdy.func_data_flow_edge` that the rest of the program reads; the
// edge carries the value's sharding:
//
//   func.func @bar(%arg0: tensor<8xf32>) -> ... { %0 = stablehlo.negate %arg0 ... }
//   %1 = call @bar(%0)   %2 = stablehlo.abs %1
//   ->
//   func.func @bar(%arg0: ...) { %e = sdy.func_data_flow_edge %arg0 ; stablehlo.negate %e ... }
//   %1 = call @bar(%0)   %e1 = sdy.func_data_flow_edge %1   %2 = stablehlo.abs %e1
//
// Values of non-static types (tokens, dynamic shapes) get none.
#pragma once

#include "ir/Module.h"

namespace autopart {

// Returns the number of edges inserted.
size_t addFuncDataFlowEdges(Module &m);

}  // namespace autopart
