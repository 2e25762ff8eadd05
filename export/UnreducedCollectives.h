// How a value reaches a sharding that keeps more axes unreduced than it has,
// as Shardy's explicit-reshard insertion spells it: an axis the value is
// replicated over becomes unreduced by `sdy.replicated_to_unreduced` (each
// device keeps its copy as a partial value, no communication), an axis a
// dimension is sharded over, minor-most, by `sdy.sharded_to_unreduced`
// (each device pads its shard to the dimension's size with zeros). A
// dimension the target shards differently from the value is first resharded
// to what the target keeps of it.
//
//   %arg0 [{"y"}, {"z"}] -> [{}, {}], unreduced={"x", "y"} on ["x", "y", "z"]:
//   %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]>                   (z gathered)
//   %1 = sdy.replicated_to_unreduced {"x"} %0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}>
//   %2 = sdy.sharded_to_unreduced [{"y"}, {}] %1 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}>
#pragma once

#include <optional>
#include <vector>

#include "ir/AxisList.h"

namespace autopart {

struct ToUnreducedSteps {
  // A reshard first, when a dimension of the target is not the value's
  // dimension with minor axes removed.
  std::optional<TensorSharding> reshard;
  AxisList replicatedToUnreduced;    // sorted as the mesh orders them
  TensorSharding afterReplicated;    // the sharding after that step
  std::vector<AxisList> shardedToUnreduced;  // per dimension, empty when none
  bool anySharded = false;
};

// Nullopt when `target` adds no unreduced axis to `source` (same mesh).
std::optional<ToUnreducedSteps> planToUnreduced(const TensorSharding &source, const TensorSharding &target,
                                                const Mesh &mesh);

}  // namespace autopart
