// Factor propagation: given one op's sharding projection (every operand and
// result seen per factor, FactorProjection.h), choose for each factor the
// axes all tensors can agree on and add them to the tensors that have fewer.
// Two strategies, with Shardy's semantics:
//
// Basic: per factor, the compatible major axes (the longest list every
// tensor's axes are a prefix of; a conflict stops the list there), then cut
// at the first axis that overlaps another factor's axes in any tensor, an
// explicitly replicated axis, or that a closed / non-divisible factor cannot
// take. Example, mesh ["a"=2, "b"=2, "c"=2], elementwise op with one factor:
//
//   operand 0  {"b", "a"}     operand 1  {"b", "c"}    result {?}
//   compatible major axes: ["b"] (then "a" vs "c" conflicts)
//   result -> {"b", ?}; the operands already have "b" as a prefix.
//
// Aggressive: the same compatible axes per factor, but each tensor takes
// what it can of them on its own, so a closed or conflicting tensor no longer
// stops the others (a fake conflict). Where two factors want the same axis in
// one tensor, the factor whose source tensor (one already holding the axes)
// is largest wins, ties going to the earlier source and then the earlier
// factor:
//
//   rule ([i], [j])->([i, j]) {i=8, j=4}, operand 0 [{"x"}], operand 1
//   [{"x"}], result open:
//   basic: "x" is used by the other factor in some tensor -> result [{?}, {?}]
//   aggressive: i's source (8 elements) is larger -> result [{"x", ?}, {?}]
//
// Results are updated before operands, and an elementwise op's operand gets
// no more than its results hold (no sideways propagation between operands
// past a result that cannot take an axis).
#pragma once

#include <functional>
#include <vector>

#include "ir/FactorProjection.h"

namespace autopart {

// A bit set: Both = Forward | Backward.
enum class PropagationDirection { None = 0, Forward = 1, Backward = 2, Both = 3 };

inline PropagationDirection unionOf(PropagationDirection a, PropagationDirection b) {
  return PropagationDirection(int(a) | int(b));
}
inline PropagationDirection intersectionOf(PropagationDirection a, PropagationDirection b) {
  return PropagationDirection(int(a) & int(b));
}

// The projection of one op: its operands, then its results.
struct OpProjection {
  std::vector<TensorFactorShardings> operands, results;
  size_t numTensors() const { return operands.size() + results.size(); }
  const TensorFactorShardings &tensor(size_t t) const {
    return t < operands.size() ? operands[t] : results[t - operands.size()];
  }
  TensorFactorShardings &tensor(size_t t) {
    return t < operands.size() ? operands[t] : results[t - operands.size()];
  }
};

enum class FactorStrategy { Basic, Aggressive };

struct FactorPropagationParams {
  FactorStrategy strategy = FactorStrategy::Basic;
  // As Shardy's conservative propagation: no sub-axes are propagated.
  bool conservative = false;
  // Per factor; null means Both for every factor.
  std::function<PropagationDirection(size_t factor)> direction;
  // Whether the op is elementwise (Shardy's trait: stablehlo arithmetic,
  // logic and conversion ops, sharding constraints); the aggressive strategy
  // then limits operands to what the results hold.
  bool elementwiseOp = false;
};

using AxesPerFactor = std::vector<AxisList>;

// The axes each factor should be sharded on after this op's propagation, with
// the basic strategy (the aggressive one decides per tensor).
AxesPerFactor compatibleShardingAxes(const OpProjection &projection, const OpShardingRule &rule,
                                     const Mesh &mesh, const FactorPropagationParams &params);

// Buffers of one propagation step, kept by the caller so that steps stop
// allocating once they have grown to the largest op.
struct FactorPropagationScratch {
  AxesPerFactor axes;
  std::vector<bool> changed;
};

// Expands every tensor's factors with `params.strategy`; returns, per tensor
// (operands then results), whether it changed (a reference into `scratch`,
// valid until the next call).
const std::vector<bool> &propagateFactors(OpProjection &projection, const OpShardingRule &rule, const Mesh &mesh,
                                          const FactorPropagationParams &params, FactorPropagationScratch &scratch);
// The same with buffers of its own (one-off callers such as tests).
std::vector<bool> propagateFactors(OpProjection &projection, const OpShardingRule &rule, const Mesh &mesh,
                                   const FactorPropagationParams &params);

}  // namespace autopart
