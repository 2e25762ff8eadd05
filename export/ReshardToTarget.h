// Brings one use of a value to a wanted sharding the way Shardy's explicit
// reshard insertion does, unreduced axes included: partial sums the target
// does not keep are all-reduced first, axes the target adds to the unreduced
// set become `sdy.replicated_to_unreduced` / `sdy.sharded_to_unreduced`, and
// whatever still differs becomes one `sdy.reshard`.
//
//   return %arg0 (%arg0: [{"y"}, {}], unreduced={"x":(1)2}),
//   function result [{}, {"y"}], unreduced={"x"}
//   ->
//   %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}], unreduced={"x":(1)2}>
//   %1 = sdy.replicated_to_unreduced {"x":(2)2} %0 out_sharding=<@mesh, [{}, {"y"}], unreduced={"x"}>
//   return %1
//
// A `sdy.reshard` whose target only adds unreduced axes is lowered the same
// way (`lowerReshardToUnreduced`):
//
//   %0 = sdy.reshard %arg0 <@mesh, [{}, {}], unreduced={"x"}>   (%arg0: [{"x"}, {}])
//   -> %0 = sdy.sharded_to_unreduced [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x"}>
#pragma once

#include <optional>
#include <string_view>

#include "ir/Module.h"
#include "sim/ShardingMap.h"

namespace autopart {

// Where new ops go: before `before` in `block` (kNone: at the block's end).
struct InsertPoint {
  BlockId block = kNone;
  OpId before = kNone;
};

class TargetResharder {
public:
  TargetResharder(Module &m, ShardingMap &map) : m_(m), map_(map) {}

  InsertPoint before(OpId op) const;
  // Right after the op defining `v`, or at the start of its block for a block
  // argument.
  InsertPoint afterValue(ValueId v) const;

  // Creates `name` reading `v` with result sharding `out` (under `shardingAttr`)
  // at `at`, located at `near`; returns its result.
  ValueId emit(std::string_view name, ValueId v, const TensorSharding &out,
               std::string_view shardingAttr, std::vector<NamedAttr> attrs, InsertPoint at, OpId near);

  // An all-reduce of `v` over its unreduced axes that `target` (null: none)
  // does not keep unreduced; `v` itself when there are none.
  ValueId allReduceUnreduced(ValueId v, const TensorSharding *target, InsertPoint at, OpId near);
  // The collectives making the unreduced axes `target` adds to `v`'s; `v`
  // itself when it adds none or `v` has no sharding.
  ValueId addUnreduced(ValueId v, const TensorSharding &target, InsertPoint at, OpId near);
  // All three steps; the reshard only when `reshard` (Shardy's full version).
  ValueId toTarget(ValueId v, const TensorSharding *target, InsertPoint at, OpId near, bool reshard);

  // Replaces an `sdy.reshard` that adds unreduced axes with the collectives
  // that do it; false (op untouched) when it adds none or is not expressible.
  bool lowerReshardToUnreduced(OpId reshard);

private:
  // r2u then s2u from `src` to `dst`, nullopt when `dst`'s dimensions are not
  // prefixes of `src`'s or some removed axis is not a new unreduced one.
  std::optional<ValueId> lowerToUnreduced(ValueId v, const TensorSharding &src, const TensorSharding &dst,
                                          InsertPoint at, OpId near);

  Module &m_;
  ShardingMap &map_;
};

}  // namespace autopart
