#include "propagation/OpPriorityPropagation.h"

#include <string_view>

#include "ir/Pass.h"

namespace autopart {

namespace {

// Whether every tensor of the rule is the op's iteration space itself, one
// pass-through factor per dimension (add, negate, sharding_constraint...).
bool isElementwise(const OpShardingRule &rule) {
  if (rule.results.empty()) return false;
  const OpShardingRule::TensorFactors &first = rule.results.front();
  for (const OpShardingRule::DimFactors &d : first)
    if (d.size() != 1 || rule.kind(d.front()) != FactorKind::PassThrough) return false;
  for (const auto *list : {&rule.operands, &rule.results})
    for (const OpShardingRule::TensorFactors &t : *list)
      if (t != first) return false;
  return true;
}

}  // namespace

void OpPriorityPropagation::propagate() {
  if (!options().opPriorities) {
    BasicPropagation::propagate();
    return;
  }
  for (level_ = 0; level_ < kNumLevels; ++level_) fixpoint();
  level_ = -1;
}

// Shardy's op-priority schedule: level 0 only elementwise ops, reshapes,
// transposes and edges (dynamic slices forward only); level 1 adds every
// pass-through factor (broadcasts backward only); level 2 everything.
PropagationDirection OpPriorityPropagation::direction(OpId op, const OpShardingRule *rule, size_t factor) const {
  if (level_ < 0) return PropagationDirection::Both;
  std::string_view n = module().opName(op);
  PropagationDirection d = PropagationDirection::None;
  if (n == "sdy.data_flow_edge" || n == "sdy.func_data_flow_edge" || n == "stablehlo.reshape" ||
      n == "stablehlo.transpose" || (rule && isElementwise(*rule)))
    d = PropagationDirection::Both;
  else if (n == "stablehlo.dynamic_slice" || n == "stablehlo.dynamic_update_slice")
    d = PropagationDirection::Forward;
  if (level_ >= 1) {
    PropagationDirection d1 = PropagationDirection::Both;
    if (rule && rule->kind(int32_t(factor)) != FactorKind::PassThrough) d1 = PropagationDirection::None;
    else if (n == "stablehlo.broadcast_in_dim") d1 = PropagationDirection::Backward;
    d = unionOf(d, d1);
  }
  if (level_ >= 2) d = PropagationDirection::Both;
  return d;
}

namespace {

PassRegistration opPriorityReg(
    "sdy-op-priority-propagate",
    "Propagate in three rounds of op priority (elementwise/reshape/transpose first, "
    "then pass-through factors, then all), each with the aggressive strategy",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      std::optional<PropagationOptions> options = propagationPassOptions(o, PropagationPass::OpPriority, d);
      return options && OpPriorityPropagation(m, *options, d).run();
    });

}  // namespace

}  // namespace autopart
