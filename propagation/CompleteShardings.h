// Completing a partial plan as XLA does before it partitions: a program
// exported with `jax.jit(f, in_shardings=...)` carries shardings on its
// arguments (and perhaps a few `sdy.sharding_constraint`s) but none on its
// ops. XLA runs Shardy's propagation pipeline (the import passes, user and
// op priorities with the aggressive factor strategy, the export cleanup)
// before the SPMD partitioner, so the program that runs is the propagated
// one; pricing or extending the input as given would price a program XLA
// never runs (every op replicated). This runs that very pipeline
// (propagation/PropagationPipeline.h), so the completion is
// `autopart-opt -sdy-propagation-pipeline`'s output, except that reshards
// stay implicit: its last step, -sdy-insert-explicit-reshards, is left out
// (it may re-shard an op to suit the reshard it inserts; a plan of the
// user's own ops keeps reshards implicit and the simulator derives them).
//
//   sdy.mesh @mesh = <["model"=2]>
//   func.func @main(%w: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
//                   %x: tensor<4x8xf32>) -> tensor<4x16xf32> {
//     %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] ...
//   ->
//   %0 gets [{}, {"model"}]: the step costs half the FLOPs per device, as
//   XLA would run it.
//
// The pipeline restructures the program: a constant used by two ops becomes
// two constants during propagation (merged again afterwards when their
// shardings agree), constraints become `sdy.reshard`s. Callers that plan the
// user's own program ask for `ValueCopies`: for each value the module had
// before, the values that stand for it afterwards.
//
//   %c = stablehlo.constant ...; %1 = add %c, %a; %2 = dot %c, %b
//   -> copies[%c] = {%c0, %c1} (the splitter's copies, one per user);
//      shardingsOfOriginals gives %c their sharding when they agree, none
//      (open: XLA shards each copy from its user) when they do not.
//
// A module that carries no sharding at all is left untouched (there is
// nothing to complete, and propagation would only cost time).
#pragma once

#include <functional>
#include <vector>

#include "ir/Module.h"
#include "ir/Sharding.h"
#include "propagation/ShardingPropagation.h"
#include "support/Diagnostics.h"

namespace autopart {

struct CompletionStats {
  size_t userShardings = 0;   // shardings the input carried (arguments, results, ops)
  PropagationStats propagation;
  bool propagated = false;    // whether the pipeline ran
  // Values of the input XLA completes differently per use (a constant the
  // pipeline split, whose copies' shardings differ): left open in a plan of
  // the input, so that XLA again shards each use its own way.
  size_t perUseValues = 0;
};

// Indexed by a value of the module before completion: the values that stand
// for it after (itself; the copies the import made of it; none when the
// pipeline removed it).
using ValueCopies = std::vector<std::vector<ValueId>>;

// The shardings `m` carries: function arguments and results, op results and
// `sdy` ops' shardings.
size_t countUserShardings(const Module &m);

// Runs Shardy's propagation pipeline on `m` as XLA does (Shardy's default
// options) and fills `copies`, when given, for every value `m` had; a no-op
// (identity `copies`) when `m` carries no sharding. False (errors in
// `diags`) when the module cannot be propagated.
bool completeShardingsAsXla(Module &m, Diagnostics &diags, CompletionStats *stats = nullptr,
                            ValueCopies *copies = nullptr);

// The completed sharding of each value of the module before completion:
// `completed(v)` of its copies when they all agree (all null: none), none
// when they differ or it has no copy left. `disagreeing` counts the values
// whose copies differ (XLA shards each use of such a constant its own way;
// one value of the user's program cannot say that).
ShardingVector shardingsOfOriginals(const ValueCopies &copies,
                                    const std::function<const TensorSharding *(ValueId)> &completed,
                                    size_t *disagreeing = nullptr);

}  // namespace autopart
