// The sequence of sdy collectives that turns one dimension sharding into
// another, in Shardy's choice and order (`-sdy-reshard-to-collectives`).
// The planner keeps, per tensor dimension, the axes still to remove (`in`)
// and still to add (`out`) after their common prefix is dropped, and until
// both are empty tries, at most twice: one all-slice (grow the shard split),
// one collective-permute (swap or reorder axes without moving data volume),
// all-to-alls (move a suffix of axes to another dimension; first only those
// landing in their final place) and one all-gather (drop the axes no longer
// wanted). On mesh ["x"=2, "y"=2, "z"=2], 16x8 tensor:
//
//   [{"y"}, {}] -> [{}, {"x"}]
//     all_slice  [{}, {"x"}]   -> [{"y"}, {"x"}]   (x is free to slice on dim 1)
//     all_gather [{"y"}, {}]   -> [{}, {"x"}]      (y is dropped last)
//
//   [{"x"}, {"y"}, {}] on 16x8x8 -> [{}, {"y"}, {"x"}]
//     all_to_all {"x"}: 0->2   -> [{}, {"y"}, {"x"}]
//
// Axes are first split so any two that overlap are equal ("x":(1)2 and "x"
// become "x":(1)2 and "x":(2)2), which lets them be compared as whole axes.
// A sharding the steps cannot reach (only with axis sizes that do not divide
// each other) is reported as unreachable, never guessed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/AxisList.h"
#include "ir/CollectiveAxes.h"
#include "ir/Sharding.h"

namespace autopart {

struct CollectiveStep {
  enum class Kind { AllSlice, CollectivePermute, AllToAll, AllGather };
  Kind kind = Kind::AllSlice;
  // all_slice: the slicing axes per dimension; all_gather: the gathering axes.
  std::vector<AxisList> perDim;
  // all_to_all: the moved axes and their source and target dimension.
  AllToAllParam param;
  // The dimension shardings after this step.
  std::vector<AxisList> result;
  // Whether the result is on the reshard's target mesh (a permute switches
  // to it when the two meshes order their devices differently).
  bool onTargetMesh = false;
};

struct CollectivePlan {
  std::vector<CollectiveStep> steps;
  // False when the loop ended before reaching the target; `steps` then holds
  // what was planned so far and must not be used.
  bool reached = true;
};

// Plans the reshard of a tensor of `shape` from `from` to `to` (per-dimension
// axes on `mesh`). `deviceOrderChanges`: the target mesh lists the same axes
// with other device ids, so at least one collective-permute is needed.
CollectivePlan planCollectives(const Mesh &mesh, const std::vector<int64_t> &shape,
                               const std::vector<AxisList> &from, const std::vector<AxisList> &to,
                               bool deviceOrderChanges);

}  // namespace autopart
