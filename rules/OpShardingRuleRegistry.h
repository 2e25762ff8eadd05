// The per-op sharding-rule registry: the one place in autopart that knows how
// each op may be sharded. Propagation, the named-dimension analysis, the
// simulator and the search all ask it; none derives op semantics itself.
//
// An op's existing `sdy.sharding_rule` attribute always wins. Otherwise the
// rule follows Shardy's registry (factor order, kinds, size-1 factors), e.g.
//
//   stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
//       contracting_dims = [2] x [1]
//       : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
//   -> ([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}
//
//   stablehlo.reshape : (tensor<2x4xf32>) -> tensor<8xf32>
//   -> ([i, j])->([ij]) {i=2, j=4}
//
// Ops without a rule (constants, iota, data-flow ops such as while and case
// that propagation links by identity edges, unknown ops) give nullopt; for an
// unknown op or custom call a warning is emitted once per op name, and later
// stages keep such ops replicated.
#pragma once

#include <optional>

#include "ir/Module.h"
#include "ir/ShardingRule.h"
#include "rules/OpInfo.h"
#include "support/Diagnostics.h"

namespace autopart {

std::optional<OpShardingRule> getOpShardingRule(const Module &m, OpId op,
                                                const RuleOptions &options = {},
                                                Diagnostics *diags = nullptr);

// Whether `op` is a data-flow op whose operands, block arguments, region
// results and results are tied by identity edges rather than a rule (its
// op-table row has a DataFlow kind).
bool isDataFlowOp(const Module &m, OpId op);

}  // namespace autopart
