#include "propagation/UserPriorityPropagation.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "ir/Pass.h"

namespace autopart {

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

}  // namespace autopart
