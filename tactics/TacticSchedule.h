// A sharding strategy as PartIR writes it: an ordered list of tactics, each
// naming a mesh axis and what it shards, applied one after another. Read
// inline or from a JSON / YAML file:
//
//   --tactics dp,fsdp                  batch parallel then ZeRO-3, default axes
//   --tactics dp:data,megatron:model   explicit axes
//   --tactics plan.yaml
//       - {tactic: dp, axis: data}
//       - {axis: model, inputs: {"params/*/w1": 1, "params/*/w2": 0}}
//       - {tactic: auto, axes: [data, model]}
//
// Default axes: dp and fsdp use an axis called data/batch/dp/fsdp, else the
// first; megatron uses model/tensor/tp/mp, else the last; auto uses all.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

enum class TacticKind { Manual, BatchParallel, Fsdp, Megatron, Auto };

struct Tactic {
  TacticKind kind = TacticKind::Manual;
  std::vector<std::string> axes;  // one axis, or several for auto
  // Manual: argument-name globs (fnmatch) and the dimension each shards.
  std::vector<std::pair<std::string, int64_t>> inputs;
  std::string spelling;  // as the user wrote it, for reports
};

struct TacticSchedule {
  std::vector<Tactic> tactics;
};

const char *tacticKindName(TacticKind k);

// `spec` is an inline list or the path of a .json / .yaml / .yml file. Axes
// are checked against `mesh`. Returns nullopt and sets `error` on failure.
std::optional<TacticSchedule> parseTacticSchedule(const std::string &spec, const Mesh &mesh,
                                                  std::string *error);

}  // namespace autopart
