// Completing a partial plan as XLA does before it partitions: a program
// exported with `jax.jit(f, in_shardings=...)` carries shardings on its
// arguments (and perhaps a few `sdy.sharding_constraint`s) but none on its
// ops. XLA runs Shardy's propagation (user priorities, op priorities, the
// aggressive factor strategy) before the SPMD partitioner, so the program
// that runs is the propagated one; pricing or extending the input as given
// would price a program XLA never runs (every op replicated).
//
//   sdy.mesh @mesh = <["model"=2]>
//   func.func @main(%w: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
//                   %x: tensor<4x8xf32>) -> tensor<4x16xf32> {
//     %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] ...
//   ->
//   %0 gets [{}, {"model"}]: the step costs half the FLOPs per device, as
//   XLA would run it.
//
// A module that carries no sharding at all is left untouched (there is
// nothing to complete, and propagation would only cost time).
#pragma once

#include "ir/Module.h"
#include "propagation/ShardingPropagation.h"
#include "support/Diagnostics.h"

namespace autopart {

struct CompletionStats {
  size_t userShardings = 0;   // shardings the input carried (arguments, results, ops)
  PropagationStats propagation;
  bool propagated = false;    // whether propagation ran
};

// The shardings `m` carries: function arguments and results, op results and
// `sdy` ops' shardings.
size_t countUserShardings(const Module &m);

// Propagates `m`'s shardings as XLA's Shardy pipeline does (data-flow edges
// added, user-priority rounds each with op priorities and the aggressive
// strategy, edges sunk back onto their ops) and writes
// them back as `sdy.sharding` attributes; a no-op when `m` carries none.
// Returns false (errors in `diags`) when the module cannot be propagated.
bool completeShardingsAsXla(Module &m, Diagnostics &diags, CompletionStats *stats = nullptr);

}  // namespace autopart
