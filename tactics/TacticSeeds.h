// What a tactic shards before propagation carries it through the program:
// the seeds, each (argument, dimension, mesh axis). Propagation (or, for a
// plan without it, the annotator) then turns seeds into shardings.
//
//   dp on "data"=8:      every data argument's dimension 0 (the batch), when
//                        divisible by 8
//   fsdp on "data"=8:    every parameter and optimizer-state argument on its
//                        largest dimension divisible by 8 and not sharded yet
//   manual on "model":   arguments whose names match a glob, on the given dim
//   megatron on "model": the hidden names of paired matmuls, found by the
//                        named-dimension analysis: names that touch two or
//                        more parameters, are contracted somewhere, and touch
//                        no data argument (so not the batch, sequence or
//                        residual-stream names); every parameter dimension
//                        with such a name is sharded
//
// A seed is skipped, with a note saying why, when the axis is already used by
// that argument or the dimension is not divisible by the axis size.
#pragma once

#include <functional>
#include <string>
#include <vector>

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

// `current(v)` gives the sharding a value already has (earlier tactics), or
// null. Megatron needs `names`; auto is left to the search.
TacticSeeds seedTactic(const Module &m, OpId func, const Tactic &tactic, const Mesh &mesh,
                       const std::function<const TensorSharding *(ValueId)> &current,
                       const NamedDimensions *names = nullptr);

}  // namespace autopart
