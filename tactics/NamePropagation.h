// Propagation by names: sharding one dimension of a named-dimension class on
// an axis shards every member of the class, the TOAST action. It is what
// makes a tactic's seed on a parameter reach the activations, gradients and
// optimizer state that must be split alike:
//
//   seed: params['w1'] dim 1 on "model"  (name n2, the MLP hidden size)
//   ->    dot_general#3 dim 1, add#5 dim 1, params['w2'] dim 0, ... on "model"
//
// A member is skipped (and counted) when its value already uses the axis on
// another dimension, when the value carries the name twice (a conflict: the
// first dimension keeps it), or when an enclosing sdy.manual_computation has
// made the axis manual there (analysis/ManualAxes.h: the body's values are
// per-device slices).
#pragma once

#include <optional>
#include <vector>

#include "analysis/ManualAxes.h"
#include "analysis/NamedDimensions.h"
#include "ir/Sharding.h"

namespace autopart {

struct NamePropagationStats {
  int64_t sharded = 0;  // member dimensions newly sharded
  int64_t skipped = 0;  // members whose value already used the axis, or bound it
};

NamePropagationStats shardName(const Module &m, const NamedDimensions &nd, NameId32 name,
                               const std::string &axis, const std::string &meshName,
                               const ManualAxes &manual, ShardingVector &state);

}  // namespace autopart
