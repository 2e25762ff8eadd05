// The sharding a value carries in the IR itself, as Shardy's getSharding
// reads it, and the equivalence of two shardings that collective patterns
// test:
//
//   func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
//   %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]>
//
//   valueSharding(%arg0) == <@mesh, [{"x", ?}]>   (the argument's attribute)
//   valueSharding(%0)    == <@mesh, [{}]>         (the op's out_sharding)
//   equivalent(<@mesh, [{"x", ?}]>, <@mesh, [{"x"}]>) is true: open/closed
//   and priorities do not change where the data lives.
#pragma once

#include <optional>

#include "ir/Module.h"

namespace autopart::canonicalize {

// Null when the value carries no sharding (or is not a tensor of a known
// owner): function arguments' `sdy.sharding`, an op's `sdy.sharding` per
// result, the target of sdy.reshard / sdy.sharding_constraint, collectives'
// `out_sharding`, and computations' in/out shardings.
std::optional<TensorSharding> valueSharding(const Module &m, ValueId v);

// Same mesh, same axes per dimension and the same unreduced axes.
bool equivalent(const TensorSharding &a, const TensorSharding &b);

}  // namespace autopart::canonicalize
