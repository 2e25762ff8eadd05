// The sharding a value carries in the IR itself, where Shardy's getSharding
// reads it: one answer for the verifier, the canonicalization patterns and
// the simulator's initial sharding map.
//
//   func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
//   %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]>
//   %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
//
//   valueSharding(%arg0) == <@mesh, [{"x", ?}]>   (the argument's attribute)
//   valueSharding(%0)    == <@mesh, [{}]>         (the collective's out_sharding)
//   valueSharding(%1)    == <@mesh, [{"x"}]>      (entry 0 of the op's sdy.sharding)
#pragma once

#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// Result `i` of `op`: the `sharding` of sdy.sharding_constraint, sdy.reshard
// and sdy.data_flow_edge, the `out_sharding` of sdy collectives, entry `i`
// of a manual or named computation's `out_shardings`, otherwise entry `i`
// of the op's `sdy.sharding`. Null when there is none.
const TensorSharding *resultSharding(const Module &m, OpId op, uint32_t i);

// Any value: a result as above; a function's entry-block argument, its
// `sdy.sharding` argument attribute; a named computation's block argument,
// entry `i` of its `in_shardings`; a while loop's block argument, the
// loop's result `i` (the values it carries share one sharding). A manual
// computation's block arguments have none stored: the body sees local
// shapes, and its in_shardings are global.
const TensorSharding *valueSharding(const Module &m, ValueId v);

// The axes an sdy.manual_computation makes manual, as written
// (`manual_axes={"x", "y"}` -> ["x", "y"]); empty for any other op.
std::vector<std::string> manualAxesOf(const Module &m, OpId op);

}  // namespace autopart
