// Makes the collectives of a sharded program explicit, as Shardy's
// `-sdy-insert-explicit-reshards` does: every op whose operands and results
// disagree with its sharding rule gets `sdy.reshard` ops on its operands
// and/or results and `sdy.all_reduce` after it for sharded reduction factors;
// each function's returned values are resharded to the function's result
// shardings.
//
//   %0 = stablehlo.dot %arg0 [{"x"}, {"y"}], %arg1 [{"y"}, {}] -> [{"x"}, {}]
//   ->
//   %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = ...[{"x"}, {}]...}
//   %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]>
//
// Unreduced axes are reduced where they become replicated and created with
// replicated/sharded_to_unreduced (export/ReshardToTarget.h); data-flow ops
// (export/DataFlowReshards.h) and single-device ops
// (export/SingleDeviceReshards.h) have their own edges.
//
// Registered for autopart-opt under Shardy's flag name.
#pragma once

#include "ir/Module.h"

namespace autopart {

void insertExplicitReshards(Module &m);

}  // namespace autopart
