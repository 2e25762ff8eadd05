// `-sdy-apply-sharding-constraints`: a closed `sdy.sharding_constraint` (or
// a manual computation's in_sharding) whose input has no sharding yet, and
// no other constraint asking for something else, dictates the input's
// sharding, so it is copied onto the input before propagation (closedness
// does not propagate, so waiting for propagation would lose it):
//
//   %0 = stablehlo.add %arg0, %arg0
//   %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]>
//   ->
//   %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
//
// When the input belongs to a data-flow edge (a while loop's carried value)
// the other users are redirected to the constraint instead, so the edge's
// other values stay free. A chain of single-use constraints also takes over
// the input's later uses in its block (except returns).
#pragma once

#include "ir/Module.h"

namespace autopart {

void applyShardingConstraints(Module &m);

}  // namespace autopart
