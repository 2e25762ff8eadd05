#include "propagation/OpPriorityPropagation.h"

#include <cstdint>
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

// Host-offload annotations move a tensor between memories unchanged.
bool isOffloadCall(const Module &m, OpId op) {
  if (m.opName(op) != "stablehlo.custom_call") return false;
  AttrId target = m.attr(op, "call_target_name");
  if (target == kNoAttr) return false;
  std::string_view t = m.attrs.stringValue(target);
  return t == "MoveToDevice" || t == "MoveToHost";
}

}  // namespace

void OpPriorityPropagation::propagate() {
  if (!options().opPriorities) {
    BasicPropagation::propagate();
    return;
  }
  // User priorities run the levels once per round; uses do not change.
  if (sharedOperand_.empty()) findSharedOperands();
  for (level_ = 0; level_ < kNumLevels; ++level_) fixpoint();
  level_ = -1;
}

void OpPriorityPropagation::findSharedOperands() {
  const Module &m = module();
  std::vector<uint32_t> uses(m.values.size(), 0);
  m.walk(m.top, [&](OpId op) {
    for (ValueId v : m.operands(op)) ++uses[v];
  });
  sharedOperand_.assign(m.ops.size(), false);
  m.walk(m.top, [&](OpId op) {
    for (ValueId v : m.operands(op))
      // A scalar cannot be sharded, so its other users cannot disagree.
      if (uses[v] > 1 && m.types.rank(m.type(v)) > 0) {
        sharedOperand_[op] = true;
        return;
      }
  });
}

// Shardy's op-priority schedule, levels 0-4 as listed in the header.
PropagationDirection OpPriorityPropagation::direction(OpId op, const OpShardingRule *rule, size_t factor) const {
  if (level_ < 0) return PropagationDirection::Both;
  const Module &m = module();
  std::string_view n = m.opName(op);
  bool broadcast = n == "stablehlo.broadcast_in_dim";
  PropagationDirection passThroughOp = PropagationDirection::None;
  if (n == "sdy.data_flow_edge" || n == "sdy.func_data_flow_edge" || n == "stablehlo.reshape" ||
      n == "stablehlo.transpose" || (rule && isElementwise(*rule)) || isOffloadCall(m, op))
    passThroughOp = PropagationDirection::Both;
  else if (n == "stablehlo.dynamic_slice" || n == "stablehlo.dynamic_update_slice")
    passThroughOp = PropagationDirection::Forward;
  bool shared = op < sharedOperand_.size() && sharedOperand_[op];
  PropagationDirection d = shared ? PropagationDirection::None : passThroughOp;
  if (level_ >= 1) d = unionOf(d, passThroughOp);
  if (level_ >= 2) {
    PropagationDirection d2 = PropagationDirection::Both;
    if (rule && rule->kind(int32_t(factor)) != FactorKind::PassThrough) d2 = PropagationDirection::None;
    else if (broadcast) d2 = PropagationDirection::Backward;
    d = unionOf(d, d2);
  }
  if (level_ >= 3) d = unionOf(d, broadcast ? PropagationDirection::Backward : PropagationDirection::Both);
  if (level_ >= 4) d = PropagationDirection::Both;
  return d;
}

namespace {

PassRegistration opPriorityReg(
    "sdy-op-priority-propagate",
    "Propagate in five rounds of op priority (single-use elementwise/reshape/transpose first, then any "
    "such op, then pass-through factors, then all but broadcasts forward, then all), each with the "
    "aggressive strategy",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      std::optional<PropagationOptions> options = propagationPassOptions(o, PropagationPass::OpPriority, d);
      return options && OpPriorityPropagation(m, *options, d).run();
    },
    propagationOptionSpecs(PropagationPass::OpPriority));

}  // namespace

}  // namespace autopart
