// `-sdy-propagation-pipeline` as a function: the one definition of what XLA
// runs on a module that carries shardings before it partitions (the import
// passes, user-priority propagation with op priorities and the aggressive
// strategy, then Shardy's export pipeline, `-sdy-export-pipeline`, with the
// options Shardy hands it; PropagationPipeline.cpp lists them). The
// registered pass and the CLI's completion of input shardings
// (propagation/CompleteShardings.h) both call it, so `autopart
// plan`/`simulate`/`search` complete a program as `autopart-opt
// -sdy-propagation-pipeline='inline-meshes=false'` rewrites it, reshards
// left implicit.
//
//   PassOptions o = PassOptions::parse("propagation-strategy=basic");
//   runPropagationPipeline(m, o, diags, &stats);   // as -sdy-propagation-pipeline='propagation-strategy=basic'
//   runPropagationPipeline(m, {}, diags);          // Shardy's defaults, as XLA runs it
#pragma once

#include "ir/Module.h"
#include "ir/Pass.h"
#include "propagation/ShardingPropagation.h"
#include "support/Diagnostics.h"

namespace autopart {

// Rewrites `m` as the pipeline does under Shardy's options `o` (the
// propagation options checked as propagationPassOptions checks them, the
// export ones by the export pipeline). The import steps restructure the
// program (constants split per user, constraints and groups applied), and
// the export steps unflatten the call graph (copies of a function sharded
// alike merged, functions left without calls erased), merge identical
// constants again, close every sharding, insert explicit `sdy.reshard`s and
// inline the meshes. False, with errors in `diags`, when an option or a
// step fails.
//
// Without `insertExplicitReshards` the last step that changes shardings,
// -sdy-insert-explicit-reshards, is left out: what remains is the completed
// sharding of every value, with reshards implicit where an op's operands
// and result disagree. That step may re-shard an op itself to suit the
// reshard it inserts (a gradient dot whose result is [{"d"}, {}] becomes
// [{}, {}] + all-reduce + reshard), so a program that keeps its reshards
// implicit, as a plan of the user's own text does, is completed without it.
bool runPropagationPipeline(Module &m, const PassOptions &o, Diagnostics &diags, PropagationStats *stats = nullptr,
                            bool insertExplicitReshards = true);

}  // namespace autopart
