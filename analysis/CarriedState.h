// A training step returns the state the next step takes back as input: the
// updated parameters and optimizer moments. A plan that returns such a value
// sharded differently from its argument is not a steady state -- the next
// call reshards it (jax.jit with in_shardings, or XLA at the parameter) --
// so the simulator charges that reshard to the step (sim/Simulator.h). This
// finds which argument each result carries over.
//
// An argument's `tf.aliasing_output = k` (a donated buffer, as JAX writes
// it) pairs it with result k. Otherwise a result pairs with the argument of
// its exact type that is closest to it through elementwise ops (an operand
// whose factors in the op's sharding rule are the result's), each argument
// and result at most once, closest pairs first:
//
//   func @main(%w: tensor<4x8xf32>, %m: tensor<4x8xf32>, %x: tensor<2x4xf32>)
//       -> (tensor<4x8xf32>, tensor<4x8xf32>)
//     %g = dot_general %x, ...   // the gradient, computed
//     %0 = multiply %b1, %m      // depth 2 from result 1
//     %1 = add %0, %g            // result 1
//     %2 = multiply %lr, %1
//     %3 = subtract %w, %2       // result 0: %w at depth 1, %m at depth 3
//     return %3, %1
//   -> result 0 carries %w (depth 1), result 1 carries %m (depth 2).
//
// An argument of a parameter's type that is not state (a gradient passed in)
// would look like state to this; such a program should say what it donates
// with `tf.aliasing_output` (jax.jit(..., donate_argnums=...)).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// Per result of `func`: the index of the argument it carries to the next
// step, or -1.
std::vector<int64_t> carriedArguments(const Module &m, OpId func);

}  // namespace autopart
