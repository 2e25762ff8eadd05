// Explicit reshards on the edges of ops whose values flow through them
// without a sharding rule (Shardy's ShardableDataFlowOpInterface): every
// source of an edge is brought, right after it is defined, to the sharding
// of the edge's owner.
//
//   owners and sources:
//   stablehlo.optimization_barrier  result i <- operand i
//   stablehlo.while                 result i <- operand i, body's return i
//   stablehlo.case                  result i <- every branch's return i
//   sdy.manual_computation          result i <- body's return i (target local,
//                                   without the manual axes); block arg i <- operand i
//   sdy.named_computation           result i <- body's return i; block arg i <- operand i
//
//   %0 = stablehlo.optimization_barrier {sdy.sharding = [<@mesh, [{"y"}]>]} %arg0  (%arg0: [{"x"}])
//   ->
//   %r = sdy.reshard %arg0 <@mesh, [{"y"}]>
//   %0 = stablehlo.optimization_barrier {sdy.sharding = [<@mesh, [{"y"}]>]} %r
#pragma once

#include "export/ReshardToTarget.h"

namespace autopart {

// Whether `op` is such an op (then its edges were handled). Without
// `reshard` only unreduced axes are dealt with (Shardy's version that is not
// full).
bool insertDataFlowReshards(Module &m, const ShardingMap &map, TargetResharder &resharder, OpId op,
                            bool reshard);

// Records in `map` the shardings of manual and named computations' results
// (their out_shardings) and block arguments (their in_shardings, local for a
// manual computation), which the simulator's map leaves out.
void addComputationShardings(const Module &m, ShardingMap &map);

}  // namespace autopart
