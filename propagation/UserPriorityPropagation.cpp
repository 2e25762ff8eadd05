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

// Before the first round every dimension with a priority above 0 (or none)
// is hidden as Shardy hides it: closed and empty, its axes explicitly
// replicated, so that it takes nothing and no other dimension of the tensor
// takes its axes, while the ops around it see a closed dimension (an
// elementwise op's operands then get no more than that result holds).
// Slots whose values all moved to a data-flow edge (a manual computation's
// `in_shardings` / `out_shardings` entry, a while result) keep the sharding
// the user wrote, priorities included, as Shardy leaves the owners of edges
// alone; their edges carry the propagation. Returns the later rounds'
// priorities.
std::vector<int64_t> UserPriorityPropagation::hideByPriority() {
  std::vector<int64_t> rounds;
  PropagationGraph &g = graph();
  for (uint32_t i = 0; i < g.numSlots(); ++i) {
    Slot &slot = g.slot(i);
    if (!slot.sharding || (g.membersOf(i).empty() && slot.storage != Storage::FuncResult)) continue;
    std::optional<TensorSharding> s = *slot.sharding;  // slots hold interned shardings

    const Mesh *mesh = g.meshOf(*s);
    bool hides = false;
    for (const DimSharding &d : s->dims) hides |= priorityOf(d) != 0;
    if (!hides || !mesh) {
      for (DimSharding &d : s->dims)
        if (d.priority) {
          d.priority.reset();
          slot.changed = true;
        }
      slot.sharding = g.intern(std::move(*s));
      continue;
    }
    originals_.push_back({i, *s});
    for (DimSharding &d : s->dims) {
      int64_t p = priorityOf(d);
      d.priority.reset();
      if (p == 0) continue;
      rounds.push_back(p);
      s->replicated.insert(s->replicated.end(), d.axes.begin(), d.axes.end());
      d = DimSharding{};
    }
    // Sorted but not merged, so that each revealed axis is found again.
    sortByMesh(s->replicated, *mesh);
    slot.sharding = g.intern(std::move(*s));
    slot.changed = true;
  }
  std::sort(rounds.begin(), rounds.end());
  rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  return rounds;
}

// Puts back the user's dimensions of priority `p` (their axes leave the
// replicated set) for the next round. A hidden dimension is still closed and
// empty when its round comes: nothing can have changed it.
void UserPriorityPropagation::revealPriority(int64_t p) {
  for (const auto &[slot, original] : originals_) {
    const TensorSharding *&interned = graph().slot(slot).sharding;
    if (!interned) continue;
    std::optional<TensorSharding> s = *interned;
    AxisList revealed;
    for (size_t d = 0; d < original.dims.size() && d < s->dims.size(); ++d) {
      if (priorityOf(original.dims[d]) != p) continue;
      s->dims[d] = original.dims[d];
      s->dims[d].priority.reset();
      revealed.insert(revealed.end(), original.dims[d].axes.begin(), original.dims[d].axes.end());
    }
    std::erase_if(s->replicated, [&](const AxisRef &a) {
      return std::find(revealed.begin(), revealed.end(), a) != revealed.end();
    });
    interned = graph().intern(std::move(*s));
  }
}

namespace {

PassRegistration userPriorityReg(
    "sdy-user-priority-propagate",
    "Propagate in rounds of user priority (p0 first, dimensions without one last), "
    "each round with op priorities and the aggressive strategy",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      std::optional<PropagationOptions> options = propagationPassOptions(o, PropagationPass::UserPriority, d);
      return options && UserPriorityPropagation(m, *options, d).run();
    },
    propagationOptionSpecs(PropagationPass::UserPriority));

}  // namespace

}  // namespace autopart
