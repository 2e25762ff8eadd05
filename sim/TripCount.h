// Static trip counts of `stablehlo.while` loops, from the counter pattern
// that jax.lax.fori_loop / scan lower to:
//
//   %r:2 = stablehlo.while(%i = %c0, %x = ...) cond {
//     %p = stablehlo.compare LT, %i, %c10     // or LE / GT / GE / NE
//     stablehlo.return %p
//   } do {
//     %n = stablehlo.add %i, %c1              // counter step
//     stablehlo.return %n, ...
//   }
//   -> trip count (10 - 0) / 1 = 10
//
// Constants may be defined inside the loop or captured from outside.
#pragma once

#include <optional>

#include "ir/Module.h"

namespace autopart {

std::optional<int64_t> staticTripCount(const Module &m, OpId whileOp);
// The integer held by a scalar `stablehlo.constant`, if `v` is one.
std::optional<int64_t> constantInt(const Module &m, ValueId v);

}  // namespace autopart
