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
// With `enable-full-version=false` (Shardy's export pipeline without explicit
// collectives, so what XLA runs by default) conflicts stay for the
// partitioner: only calls (operands resharded to the callee's argument
// shardings), a concatenate whose operands differ from its result, a dot
// whose conflict is cheaper on its result (export/DotResultReshard.h), and
// partial sums (unreduced axes) the reader does not keep get explicit ops:
//
//   %0 = call @foo(%arg0 [{"x"}]) with @foo(%a: [{"y"}])
//   -> %r = sdy.reshard %arg0 <@mesh, [{"y"}]>   %0 = call @foo(%r)
//
// An op with a single-device result gets its operands gathered onto that
// device and its results handed back (export/SingleDeviceReshards.h).
//
// Registered for autopart-opt under Shardy's flag name; the option defaults
// to the full version.
#pragma once

#include "ir/Module.h"

namespace autopart {

// `avoidReshardsOnNamedComputations`: a named computation's operands keep
// their shardings (only what its body returns is resharded).
void insertExplicitReshards(Module &m, bool fullVersion = true, bool avoidReshardsOnNamedComputations = false);

}  // namespace autopart
