// Explicit reshards around an op that runs on one device: one of its results
// has a single-device (maximal) sharding. Such an op has no sharding rule to
// agree with; its tensor operands are gathered onto that device and its
// tensor results handed back to the program's global mesh, the first
// `sdy.mesh` with axes, replicated (tokens are left alone):
//
//   %0 = stablehlo.custom_call @f(%arg0) {sdy.sharding = [<@dev0, []>]}   (%arg0: <@mesh, [{"x"}]>)
//   %1 = stablehlo.abs %0 {sdy.sharding = [<@mesh, [{"x"}]>]}
//   ->
//   %r0 = sdy.reshard %arg0 <@mesh, [{}]>      (replicated where it is)
//   %r1 = sdy.reshard %r0 <@dev0, []>          (onto the device)
//   %0 = stablehlo.custom_call @f(%r1) {sdy.sharding = [<@dev0, []>]}
//   %r2 = sdy.reshard %0 <@mesh, [{}]>         (back, replicated)
//   %r3 = sdy.reshard %r2 <@mesh, [{"x"}]>     (then as the abs reads it)
//
// A result annotated with a sharding on another mesh is still handed back
// replicated first, then resharded to its annotation.
#pragma once

#include <functional>

#include "ir/Module.h"
#include "sim/ShardingMap.h"

namespace autopart {

// Places an `sdy.reshard` of `v` to `target` in `block` before `before`
// (kNone: at the block's end), located at `near`, records its sharding and
// returns its result (the explicit-reshard driver's own reshard builder).
using ReshardBuilder =
    std::function<ValueId(ValueId v, const TensorSharding &target, BlockId block, OpId before, OpId near)>;

// Whether `op` runs on one device (then its reshards were inserted); uses of
// its results within `func` read the handed-back values.
bool insertSingleDeviceReshards(Module &m, ShardingMap &map, const ReshardBuilder &reshard, OpId func, OpId op);

}  // namespace autopart
