#include "propagation/ShardingPropagation.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/Pass.h"
#include "propagation/BasicPropagation.h"

namespace autopart {

class OpPriorityPropagation : public BasicPropagation {
public:
  using BasicPropagation::BasicPropagation;

protected:
  void propagate() override;
  PropagationDirection direction(OpId op, const OpShardingRule *rule, size_t factor) const override;

private:
  static constexpr int kNumLevels = 3;
  int level_ = -1;  // the level of the running fixpoint; -1: none
};

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
      PropagationOptions options = propagationPassOptions(o, FactorStrategy::Aggressive);
      options.opPriorities = true;
      return OpPriorityPropagation(m, options, d).run();
    });

}  // namespace

class UserPriorityPropagation : public OpPriorityPropagation {
public:
  using OpPriorityPropagation::OpPriorityPropagation;

protected:
  void propagate() override;

private:
  std::vector<int64_t> hideByPriority();
  void revealPriority(int64_t p);

  // The slots that hide dimensions, with their sharding as the user wrote it.
  std::vector<std::pair<uint32_t, TensorSharding>> originals_;
};

namespace {

// A dimension without a priority has the lowest one.
int64_t priorityOf(const DimSharding &d) { return d.priority.value_or(std::numeric_limits<int64_t>::max()); }

}  // namespace

void UserPriorityPropagation::propagate() {
  std::vector<int64_t> rounds = hideByPriority();
  OpPriorityPropagation::propagate();
  for (int64_t p : rounds) {
    revealPriority(p);
    OpPriorityPropagation::propagate();
  }
}

// Before the first round every dimension with a priority above 0 is hidden.
// Returns the later rounds' priorities.
std::vector<int64_t> UserPriorityPropagation::hideByPriority() {
  std::vector<int64_t> rounds;
  PropagationGraph &g = graph();
  for (uint32_t i = 0; i < g.numSlots(); ++i) {
    std::optional<TensorSharding> &s = g.slot(i).sharding;
    if (!s) continue;
    const Mesh *mesh = g.meshOf(*s);
    bool hides = false;
    for (const DimSharding &d : s->dims) hides |= priorityOf(d) != 0;
    if (!hides || !mesh) {
      for (DimSharding &d : s->dims)
        if (d.priority) {
          d.priority.reset();
          g.slot(i).changed = true;
        }
      continue;
    }
    originals_.push_back({i, *s});
    g.slot(i).hidden.assign(s->dims.size(), false);
    for (size_t k = 0; k < s->dims.size(); ++k) {
      DimSharding &d = s->dims[k];
      int64_t p = priorityOf(d);
      if (p != 0) {
        g.slot(i).hidden[k] = true;
        rounds.push_back(p);
        s->replicated.insert(s->replicated.end(), d.axes.begin(), d.axes.end());
        d = DimSharding{};
      }
      d.priority.reset();
    }
    // Sorted but not merged, so that each revealed axis is found again.
    sortByMesh(s->replicated, *mesh);
    g.slot(i).changed = true;
  }
  std::sort(rounds.begin(), rounds.end());
  rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  return rounds;
}

// Puts back the user's dimensions of priority `p` (their axes leave the
// replicated set) for the next round.
void UserPriorityPropagation::revealPriority(int64_t p) {
  for (const auto &[slot, original] : originals_) {
    std::optional<TensorSharding> &s = graph().slot(slot).sharding;
    if (!s) continue;
    AxisList revealed;
    for (size_t d = 0; d < original.dims.size() && d < s->dims.size(); ++d) {
      if (priorityOf(original.dims[d]) != p) continue;
      graph().slot(slot).hidden[d] = false;
      s->dims[d] = original.dims[d];
      s->dims[d].priority.reset();
      revealed.insert(revealed.end(), original.dims[d].axes.begin(), original.dims[d].axes.end());
    }
    std::erase_if(s->replicated, [&](const AxisRef &a) {
      return std::find(revealed.begin(), revealed.end(), a) != revealed.end();
    });
  }
}

namespace {

PassRegistration userPriorityReg(
    "sdy-user-priority-propagate",
    "Propagate in rounds of user priority (p0 first, dimensions without one last), "
    "each round with op priorities and the aggressive strategy",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      PropagationOptions options = propagationPassOptions(o, FactorStrategy::Aggressive);
      options.userPriorities = true;
      options.opPriorities = true;
      return UserPriorityPropagation(m, options, d).run();
    });

}  // namespace

bool propagateShardings(Module &m, const PropagationOptions &options, Diagnostics &diags,
                        PropagationStats *stats) {
  if (options.userPriorities) return UserPriorityPropagation(m, options, diags).run(stats);
  if (options.opPriorities) return OpPriorityPropagation(m, options, diags).run(stats);
  return BasicPropagation(m, options, diags).run(stats);
}

}  // namespace autopart
