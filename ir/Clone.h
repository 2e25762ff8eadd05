// Deep copies of ops, for rewrites that duplicate computation (recomputing
// activations, moving a step into a loop body).
//
//   %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1]
//   cloneOp(m, reduce, map{%0 -> %9})
//   -> a detached `stablehlo.reduce(%9 init: %c)` with a fresh body block whose
//      arguments and ops are new values; %c (not in the map) is used as is.
#pragma once

#include <functional>

#include "ir/Module.h"

namespace autopart {

// Copies `op` with its attributes, result types and regions; each operand
// (including values its regions capture from outside) goes through `map`,
// values defined inside the copied regions map to their copies. The copy is
// detached: the caller places it with Module::insertOp or by editing a
// block's op list.
OpId cloneOp(Module &m, OpId op, const std::function<ValueId(ValueId)> &map);

}  // namespace autopart
