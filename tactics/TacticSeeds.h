// What a tactic shards before propagation carries it through the program:
// the seeds, each (argument, dimension, mesh axis). Propagation (or, for a
// plan without it, the annotator) then turns seeds into shardings.
//
//   dp on "data"=8:      every data argument's dimension 0 (the batch), when
//                        divisible by 8
//   fsdp on "data"=8:    every parameter and optimizer-state argument on its
//                        largest dimension divisible by 8 and not sharded yet
//   zero1 on "data"=8:   every optimizer-state argument, likewise
//   manual on "model":   arguments whose names match a glob, on the given dim
//   megatron on "model": the hidden names of paired matmuls (see
//                        tactics/MegatronTactic.cpp)
//
// Each named tactic's seed function lives in its own file and is found
// through the registry (tactics/TacticRegistry.h); manual globs are seeded
// here. A seed is skipped, with a note saying why, when the axis is already
// used by that argument or the dimension is not divisible by the axis size.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "analysis/ArgumentRoles.h"
#include "analysis/NamedDimensions.h"
#include "ir/Module.h"
#include "ir/Sharding.h"
#include "tactics/TacticSchedule.h"

namespace autopart {

struct ShardingSeed {
  ValueId value = kNone;
  size_t argIndex = 0;
  int64_t dim = 0;
  std::string axis;
};

struct TacticSeeds {
  std::vector<ShardingSeed> seeds;
  std::vector<std::string> notes;  // skipped arguments and why
};

using CurrentSharding = std::function<const TensorSharding *(ValueId)>;

// What a seed function sees: the entry function's arguments with their
// roles, the tactic's (first) axis and the shardings earlier tactics left.
struct SeedContext {
  const Module &m;
  OpId func;
  const Tactic &tactic;
  const Mesh &mesh;
  const CurrentSharding &current;
  const NamedDimensions *names;  // null when the caller ran no analysis
  std::span<const ValueId> args;
  std::vector<ArgumentInfo> infos;  // per argument: name, role, bytes
  std::string axis;
  int64_t axisSize = 1;

  // True for a tensor argument of rank 1 or more (what a tactic can shard).
  bool shardable(size_t i) const;
  const std::vector<int64_t> &shape(size_t i) const;
  // Seeds argument `i` on `dim`, or adds a note saying why not.
  void trySeed(size_t i, int64_t dim, TacticSeeds &out) const;
  // Seeds argument `i` on its largest dimension the axis divides and no
  // earlier tactic shards (ties: the first), or notes that none is free.
  void seedLargestFreeDim(size_t i, TacticSeeds &out) const;
};

// `current(v)` gives the sharding a value already has (earlier tactics), or
// null. Megatron needs `names`; auto is left to the search.
TacticSeeds seedTactic(const Module &m, OpId func, const Tactic &tactic, const Mesh &mesh,
                       const CurrentSharding &current, const NamedDimensions *names = nullptr);

}  // namespace autopart
