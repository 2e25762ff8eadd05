// Sharding propagation over a whole module with Shardy's semantics: every op
// with a sharding rule, every `sdy.data_flow_edge`, every
// `sdy.propagation_barrier` and every function's results are propagation
// steps; a step projects the shardings of its tensors onto factors, lets the
// factor strategy (FactorPropagation.h) choose the axes per factor, and writes
// back the tensors that gained axes. A worklist revisits the steps around a
// changed value until nothing changes (a fixpoint). Open dimensions (`{?}`)
// only grow; closed ones never change.
//
//   sdy.mesh @mesh = <["a"=2, "b"=2]>
//   func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
//                %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] ...
//   ->
//   %arg1 gets [{"b", ?}, {?}] (the contracting factor), %0 gets
//   [{"a", ?}, {?}] and so does the function result.
//
// This is the entry point for code that propagates a module in one call;
// the work is split into layers as Shardy splits its passes, each in its
// own file and each building on the one below:
//
//   PropagationGraph.h         values, slots, data-flow edges, groups
//   BasicPropagation.h         the worklist fixpoint and the write-back
//                              (`-sdy-basic-propagate`)
//   AggressivePropagation.cpp  the same with the aggressive factor strategy
//                              (`-sdy-aggressive-propagate`)
//   OpPriorityPropagation.h    five fixpoints by op priority
//                              (`-sdy-op-priority-propagate`)
//   UserPriorityPropagation.h  rounds by user priority, each an op-priority
//                              propagation (`-sdy-user-priority-propagate`)
//
// Every pass takes Shardy's options (`propagationPassOptions`);
// PropagationPipeline.cpp adds `-sdy-propagation-pipeline` (import passes,
// user-priority propagation, export cleanup).
#pragma once

#include <optional>
#include <vector>

#include "ir/Module.h"
#include "propagation/FactorPropagation.h"
#include "support/Diagnostics.h"

namespace autopart {

struct PropagationOptions {
  FactorStrategy strategy = FactorStrategy::Basic;
  bool conservative = false;
  // Attach each op's rule as `sdy.sharding_rule` (Shardy keeps the rules it
  // created only with this option; custom rules always stay).
  bool keepShardingRules = false;
  // Shardy's user priorities: propagate dimensions with priority p0 first,
  // then p1, ..., then dimensions without a priority, each round to a
  // fixpoint; until its round a dimension is hidden (closed, empty, its axes
  // explicitly replicated). The output drops the priorities.
  bool userPriorities = false;
  // Shardy's op priorities: each fixpoint runs five times, first through
  // elementwise ops, reshapes and transposes whose operands have no other
  // user, then through any of them, then through every pass-through factor,
  // then through everything but broadcasts forward, then through everything.
  bool opPriorities = false;
};

struct PassOptions;
struct PassOptionSpec;

// The propagation passes, for their options.
enum class PropagationPass { Basic, Aggressive, OpPriority, UserPriority, Pipeline };

// The options `pass` declares (its registration's list, what --help shows
// and what propagationPassOptions checks).
std::vector<PassOptionSpec> propagationOptionSpecs(PropagationPass pass);

// A pass's options under Shardy's names, checked: `keep-sharding-rules`,
// `conservative-propagation`; `propagation-strategy=aggressive|basic`
// (aggressive, user-priority, pipeline); `run-op-priority-propagation`
// (user-priority, pipeline). Shardy's debugging options are accepted when
// they ask for nothing (`module-dump-directory` empty, `debug-*` false):
// autopart-opt writes no dumps and keeps no origins. Anything else is an
// error in `diags` and nullopt.
std::optional<PropagationOptions> propagationPassOptions(const PassOptions &o, PropagationPass pass,
                                                         Diagnostics &diags);

struct PropagationStats {
  size_t steps = 0;     // propagation steps run (worklist pops)
  size_t updates = 0;   // tensor shardings changed
};

// Propagates every sharding in `m` to a fixpoint and writes the results back
// as `sdy.sharding` attributes, through the layer `options` asks for (user
// priorities, else op priorities, else the basic fixpoint). Returns false
// (with errors in `diags`) when the module cannot be propagated.
bool propagateShardings(Module &m, const PropagationOptions &options, Diagnostics &diags,
                        PropagationStats *stats = nullptr);

}  // namespace autopart
