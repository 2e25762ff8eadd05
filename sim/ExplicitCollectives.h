// The collectives a program spells out itself: StableHLO's all_reduce,
// all_gather, reduce_scatter, all_to_all, collective_permute and
// collective_broadcast, as
// torch-xla, shard_map and hand-partitioned programs write them inside an
// `sdy.manual_computation` body (per-device shapes), and Shardy's
// `sdy.all_reduce` / `sdy.reduce_scatter`, which name their mesh axes (the
// other sdy collectives are priced as the reshard from their operand's
// sharding to their result's). They cost what a
// reshard's collectives of the same kind cost (sim/CollectiveCost.h); what
// has to be found is which mesh axes their device groups span, since the
// links are per axis.
//
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   sdy.manual_computation ... manual_axes={"x", "y"} (%a: tensor<8x16xbf16>) {
//     %r = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]>
//                                      : tensor<4x2xi64>, ...}>
//   -> all-reduce over {"x"} of 256 B (the groups are the devices that differ
//      only in x, ir/DeviceGroups.h axesOfGroups)
//
// The mesh is the enclosing manual computation's, else the program's only
// mesh. Groups that match no set of whole axes (ragged, part of an axis), or
// a program without a mesh, use one stand-in axis as large as the groups,
// named `groups of N`, on the device's default link. Empty replica groups
// mean every device, as in StableHLO. A collective_permute spans the axes on
// which some source and target differ. Bytes follow sim/Collective.h: the
// gathered result of an all-gather, the unscattered operand of a
// reduce-scatter, the operand of the others; a variadic all_reduce is one
// all-reduce per operand.
#pragma once

#include <vector>

#include "ir/Module.h"
#include "ir/Sharding.h"
#include "sim/Collective.h"
#include "sim/ShardingMap.h"

namespace autopart {

struct ExplicitCollective {
  Collective collective;
  Mesh mesh;  // the mesh `collective.axes` name axes of
};

// Empty for an op that is not one of the collectives above, or whose groups
// hold a single device.
std::vector<ExplicitCollective> explicitCollectives(const Module &m, OpId op, const ShardingMap &shardings);

}  // namespace autopart
