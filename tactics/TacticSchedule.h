// A sharding strategy as PartIR writes it: an ordered list of tactics, each
// naming a mesh axis and what it shards, applied one after another. Read
// inline or from a JSON / YAML file:
//
//   --tactics dp,fsdp                  batch parallel then ZeRO-3, default axes
//   --tactics dp:data,megatron:model   explicit axes
//   --tactics fsdp,remat:full,microbatch:8   with memory levers
//   --tactics plan.yaml
//       - {tactic: dp, axis: data}
//       - {axis: model, inputs: {"params/*/w1": 1, "params/*/w2": 0}}
//       - {tactic: auto, axes: [data, model]}
//   or, as an object: {input_shardings: map, tactics: [...]}
//
// Named tactics (dp, fsdp, megatron, zero1, ...) are looked up in the
// registry (tactics/TacticRegistry.h), which also gives each its default
// axis (dp, fsdp, zero1: an axis called data/batch/dp/fsdp, else the first;
// megatron: model/tensor/tp/mp, else the last). `auto` (the search, on all
// axes by default) and manual glob tactics are kinds of their own.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/Sharding.h"
#include "levers/Levers.h"
#include "support/Diagnostics.h"

namespace autopart {

// Named: a registered tactic; Manual: argument-name globs (files only);
// Auto: the search, which the driver supplies (tactics/ApplySchedule.h).
enum class TacticKind { Manual, Named, Auto };

struct Tactic {
  TacticKind kind = TacticKind::Manual;
  std::string name;  // Named: the registered name ("fsdp" also for "zero3")
  std::vector<std::string> axes;  // one axis, or several for auto
  // Manual: argument-name globs (fnmatch) and the dimension each shards.
  std::vector<std::pair<std::string, int64_t>> inputs;
  std::string spelling;  // as the user wrote it, for reports
};

// Memory levers (`remat:full`, `microbatch:8`; levers/Levers.h) may be
// listed among the tactics: they rewrite the program before any tactic
// runs, wherever they appear in the list.
struct TacticSchedule {
  std::vector<Tactic> tactics;
  // A file's `input_shardings: keep|map|drop` (api/InputShardings.h): what
  // the schedule does with the input's shardings on another mesh. Empty
  // when not given; `--input-shardings` overrides it.
  std::string inputShardings;
  LeverConfig levers;
  std::vector<std::string> leverEntries;  // as written
};

const char *tacticKindName(TacticKind k);
// For reports: a named tactic's registered name, else its kind's name.
std::string tacticName(const Tactic &t);

// `spec` is an inline list or the path of a .json / .yaml / .yml file. Axes
// are checked against `mesh`. Returns nullopt with the reason in `diags` on failure.
std::optional<TacticSchedule> parseTacticSchedule(const std::string &spec, const Mesh &mesh, Diagnostics &diags);

}  // namespace autopart
