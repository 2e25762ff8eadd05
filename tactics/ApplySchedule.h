// Applies a tactic schedule, PartIR-style: tactics run in order, each seeds
// shardings on the entry function's arguments and carries them through the
// program, building on what earlier tactics (and the input's own
// annotations) fixed.
//
//   schedule dp:data, megatron:model on an MLP
//   -> dp:       %x dim 0 on "data", then every member of its name (the
//                batch) through the program
//   -> megatron: the hidden name of w1/w2 on "model" (w1 dim 1, w2 dim 0,
//                the activations between them)
//
// How far a named tactic's seeds reach (the whole name, the argument alone,
// or the argument and the step's update of it) is part of its registration
// (tactics/TacticRegistry.h).
//
// `auto` is not applied here: the search lives downstream of tactics, so the
// driver passes it in as a callback that edits the same state.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/NamedDimensions.h"
#include "tactics/NamePropagation.h"
#include "tactics/TacticSchedule.h"

namespace autopart {

struct ScheduleContext {
  const Module &m;
  OpId func;
  const Mesh &mesh;
  std::string meshName;
  const NamedDimensions &names;
};

// Applies one `auto` tactic to `state`; returns its report entry or sets
// `diags` (e.g. no search in this build) and returns nullopt.
using AutoTacticFn = std::function<std::optional<nlohmann::json>(
    const ScheduleContext &, const Tactic &, ShardingVector &state, Diagnostics &diags)>;

// Shardings the input already carries on the entry function's arguments;
// tactics treat them as fixed.
void seedFromInput(const Module &m, OpId func, ShardingVector &state);

// Runs every tactic in order on `state` (indexed by ValueId). Returns one
// JSON report entry per tactic ({tactic, kind, axis, sharded: [{argument,
// dim}], skipped, dims_sharded, dims_skipped}); nullopt with the reason in `diags`
// when a tactic cannot run.
std::optional<nlohmann::json> applySchedule(const ScheduleContext &ctx, const TacticSchedule &schedule,
                                            ShardingVector &state, const AutoTacticFn &autoTactic,
                                            Diagnostics &diags);

}  // namespace autopart
