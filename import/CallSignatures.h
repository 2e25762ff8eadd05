// Two small call-graph passes on function signatures and order.
//
// `-sdy-propagate-sharding-from-func-to-call`: a call without result
// shardings takes its callee's (results the callee leaves unsharded get
// fully open shardings); a call that has any keeps them:
//
//   %0 = call @foo(%arg0)     func.func private @foo(...) -> (tensor<8x2xi32> {sdy.sharding = S})
//   -> %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[S]>}
//
// `-sdy-pre-order-funcs`: orders the module's functions callers first
// (reverse post-order of the call graph), so walking functions in module
// order walks the program top-down:
//
//   @func2, @func1 (calls @func2), @main (calls @func1)  ->  @main, @func1, @func2
#pragma once

#include "ir/Module.h"

namespace autopart {

// Returns the number of calls given shardings.
size_t propagateShardingFromFuncToCall(Module &m);
void preOrderFuncs(Module &m);

}  // namespace autopart
