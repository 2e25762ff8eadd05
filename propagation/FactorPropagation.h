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
// Aggressive: the same within each factor, but across factors only tensors
// that hold the factor count, and when two factors would add overlapping
// axes to the same tensor, the factor already sharded on the larger tensor
// (more elements) wins and the other keeps the non-overlapping prefix:
//
//   rule ([i], [j])->([i, j]) {i=8, j=4}, operand 0 (8 elements) [{"x"}],
//   operand 1 (4 elements) [{"x"}], result open:
//   basic: "x" is used by the other factor in some tensor -> result [{?}, {?}]
//   aggressive: i's source is larger -> result [{"x", ?}, {?}]
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
  // Per tensor (operands then results), its number of elements; the
  // aggressive strategy prefers factors of larger tensors. Empty: all equal.
  std::vector<int64_t> tensorElements;
};

using AxesPerFactor = std::vector<AxisList>;

// The axes each factor should be sharded on after this op's propagation.
AxesPerFactor compatibleShardingAxes(const OpProjection &projection, const OpShardingRule &rule,
                                     const Mesh &mesh, const FactorPropagationParams &params);

// Expands every tensor's factors to `compatibleShardingAxes`; returns, per
// tensor (operands then results), whether it changed.
std::vector<bool> propagateFactors(OpProjection &projection, const OpShardingRule &rule,
                                   const Mesh &mesh, const FactorPropagationParams &params);

}  // namespace autopart
