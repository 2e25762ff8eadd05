#include "search/Polish.h"

#include <algorithm>

namespace autopart {

namespace {

using Clock = std::chrono::steady_clock;

// `path` with axes `a` and `b` exchanged in every action (an action whose
// counterpart does not exist is dropped).
std::vector<uint32_t> swapAxes(const ActionSpace &space, const std::vector<uint32_t> &path, int a, int b) {
  std::vector<uint32_t> swapped;
  for (uint32_t id : path) {
    Action want = space.actions[id];
    if (want.axis == a)
      want.axis = b;
    else if (want.axis == b)
      want.axis = a;
    for (uint32_t k = 0; k < space.size(); ++k) {
      const Action &x = space.actions[k];
      if (x.kind == want.kind && x.target == want.target && x.axis == want.axis) {
        swapped.push_back(k);
        break;
      }
    }
  }
  return swapped;
}

// The name-level local search of polishActions, one kind of move per member
// function; each returns whether it improved the plan.
class NamePolish {
public:
  NamePolish(SearchState &st, std::vector<uint32_t> &path, PlanCost &cost, Clock::time_point deadline)
      : st_(st), path_(path), cost_(cost), deadline_(deadline) {}

  void run() {
    bool improved = true;
    while (improved && !late()) {
      st_.reset();
      st_.applyAll(path_);
      improved = addActions();
      improved |= dropActions();
      if (improved) continue;
      improved = swapAxesAndDescend();
      if (improved) continue;
      improved = dropAndDescend();
    }
    st_.reset();
    st_.applyAll(path_);
  }

private:
  bool late() const { return Clock::now() >= deadline_; }

  // Takes the state's plan when it beats the best so far.
  bool accept(const PlanCost &c) {
    if (!c.betterThan(cost_)) return false;
    cost_ = c;
    path_ = st_.path();
    return true;
  }

  // The best improving action, each round, until none improves; never
  // `except`. Returns the cost reached.
  PlanCost descendGreedily(PlanCost here, int64_t except = -1) {
    for (;;) {
      SearchState::Improvement next = st_.bestImprovingAction(here, deadline_, except);
      if (next.action < 0) return here;
      st_.apply(uint32_t(next.action));
      here = next.cost;
    }
  }

  // From the state on path_: every legal action, kept when it improves.
  bool addActions() {
    bool improved = false;
    for (uint32_t id = 0; id < st_.space().size() && !late(); ++id) {
      if (!st_.legal(id)) continue;
      st_.apply(id);
      if (accept(st_.evaluate()))
        improved = true;
      else
        st_.undo();
    }
    return improved;
  }

  // Every action of path_ left out in turn, the plan without it kept when
  // better (the same position is then tried again).
  bool dropActions() {
    bool improved = false;
    for (size_t i = 0; i < path_.size() && !late(); ++i) {
      std::vector<uint32_t> fewer = path_;
      fewer.erase(fewer.begin() + std::ptrdiff_t(i));
      st_.reset();
      st_.applyAll(fewer);
      if (accept(st_.evaluate())) {
        improved = true;
        --i;
      }
    }
    return improved;
  }

  // Two axes swapped throughout the plan, then a greedy descent: heads and
  // MLP hidden moved from "data" to "model" frees "data" for the batch, a
  // move the single changes only make one name at a time, each a loss on its
  // own. The first pair that improves is kept.
  bool swapAxesAndDescend() {
    const ActionSpace &space = st_.space();
    for (size_t a = 0; a < space.axes.size(); ++a)
      for (size_t b = a + 1; b < space.axes.size() && !late(); ++b) {
        st_.reset();
        st_.applyAll(swapAxes(space, path_, int(a), int(b)));
        if (accept(descendGreedily(st_.evaluate()))) return true;
      }
    return false;
  }

  // One action dropped, then a greedy descent that never takes it back:
  // swaps a sharding of an axis for several others (sequence on "model" for
  // heads and MLP hidden on "model"). The first drop that improves is kept.
  bool dropAndDescend() {
    for (size_t i = 0; i < path_.size() && !late(); ++i) {
      uint32_t dropped = path_[i];
      std::vector<uint32_t> fewer = path_;
      fewer.erase(fewer.begin() + std::ptrdiff_t(i));
      st_.reset();
      st_.applyAll(fewer);
      if (accept(descendGreedily(st_.evaluate(), int64_t(dropped)))) return true;
    }
    return false;
  }

  SearchState &st_;
  std::vector<uint32_t> &path_;
  PlanCost &cost_;
  Clock::time_point deadline_;
};

// The distinct runners-up best first (ties: first listed), without the
// polished plan, at most `keep`.
std::vector<PlanStart> distinctRunnersUp(std::vector<PlanStart> all, const std::vector<uint32_t> &polishedKey,
                                         size_t keep) {
  std::vector<PlanStart> out;
  for (PlanStart &s : all)
    if (std::none_of(out.begin(), out.end(), [&](const PlanStart &x) { return x.key == s.key; }))
      out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(),
                   [](const PlanStart &a, const PlanStart &b) { return a.cost.betterThan(b.cost); });
  std::erase_if(out, [&](const PlanStart &s) { return s.key == polishedKey; });
  out.resize(std::min(out.size(), keep));
  return out;
}

}  // namespace

void polishActions(SearchState &st, std::vector<uint32_t> &path, PlanCost &cost, Clock::time_point deadline) {
  NamePolish(st, path, cost, deadline).run();
}

MultiStartRefinement refineFromStarts(SearchState &st, const DeviceParams &device,
                                      const std::vector<uint32_t> &polished, const PlanCost &polishedCost,
                                      std::vector<PlanStart> runnersUp, int maxStarts, Clock::time_point deadline,
                                      const RefineOptions &options) {
  const ActionSpace &space = st.space();
  std::vector<PlanStart> others =
      distinctRunnersUp(std::move(runnersUp), st.key(), size_t(std::max(1, maxStarts) - 1));
  MultiStartRefinement out;
  out.refined = refinePlan(space, device, st.shardings(), polishedCost, deadline, options);
  out.actions = polished;
  out.evaluations = out.refined.evaluations;
  out.starts = 1;
  for (const PlanStart &s : others) {
    if (Clock::now() >= deadline) break;
    st.reset();
    st.applyAll(s.path);
    RefineResult other = refinePlan(space, device, st.shardings(), s.cost, deadline, options);
    out.evaluations += other.evaluations;
    ++out.starts;
    if (other.cost.betterThan(out.refined.cost)) {
      out.refined = std::move(other);
      out.actions = s.path;
    }
  }
  return out;
}

PlanCost priceStart(const ActionSpace &space, const DeviceParams &device, const ShardingVector &start) {
  Simulator sim = simulatorFor(space, device);
  for (ValueId v = 0; v < start.size(); ++v)
    if (start[v]) sim.setSharding(v, *start[v]);
  std::vector<int64_t> scratch(space.m->ops.size(), 0);
  return pricePlan(sim, *space.m, space.func, device.hbmCapacity, scratch);
}

}  // namespace autopart
