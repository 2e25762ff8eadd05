// Sums a loop accumulates: result j of a `stablehlo.while` whose body
// yields `add(acc_j, x)` at position j, where `acc_j` (the body's argument j)
// is read only by that add and x only there too. Microbatching writes
// gradients this way (levers/Microbatch.h), and so do jax.lax.scan-based
// gradient accumulation loops. Tactics shard the parts like the result (an
// FSDP gradient stays sharded while it accumulates) and the simulator moves
// an all-reduce of x out of the loop as XLA's while-loop all-reduce code
// motion does.
//
//   %r:2 = stablehlo.while(%i = %c0, %acc = %zero) ... do {
//     %g = dot_general ... ; %acc2 = stablehlo.add %acc, %g
//     stablehlo.return %i1, %acc2 }
//   LoopSums(m, func).of(%r#1) -> {init %zero, arg %acc, sum %acc2, part %g}
#pragma once

#include <unordered_map>

#include "ir/Module.h"

namespace autopart {

struct LoopSum {
  OpId loop = kNone;
  uint32_t index = 0;
  ValueId init = kNone, arg = kNone, sum = kNone, part = kNone;
};

// Every such sum of the loops in `func`, found in one walk per loop.
class LoopSums {
public:
  LoopSums(const Module &m, OpId func);
  // The sum loop result `v` carries, or null.
  const LoopSum *of(ValueId v) const {
    auto it = byResult_.find(v);
    return it == byResult_.end() ? nullptr : &it->second;
  }
  bool empty() const { return byResult_.empty(); }

private:
  std::unordered_map<ValueId, LoopSum> byResult_;
};

}  // namespace autopart
