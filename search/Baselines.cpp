#include "search/Baselines.h"

#include <algorithm>
#include <random>

namespace autopart {

namespace {

using Clock = std::chrono::steady_clock;

struct Best {
  BaselineResult r;
  bool have = false;
  void offer(const SearchState &st, const PlanCost &c) {
    if (!have || c.betterThan(r.cost)) {
      have = true;
      r.cost = c;
      r.actions = st.path();
    }
  }
  BaselineResult finish(SearchState &st) {
    st.reset();
    st.applyAll(r.actions);
    r.shardings = st.shardings();
    r.evaluations = int64_t(st.evaluations());
    return r;
  }
};

}  // namespace

BaselineResult runExhaustive(const ActionSpace &space, const DeviceParams &device, int64_t maxStates,
                             Clock::time_point deadline) {
  SearchState st(space, device);
  Best best;
  // Conflict resolutions first: they only matter before their name is sharded.
  std::vector<uint32_t> order(space.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(),
                        [&](uint32_t id) { return space.actions[id].kind == ActionKind::ResolveConflict; });
  int64_t states = 0;
  bool complete = true;
  auto visit = [&](auto &&self, size_t from) -> void {
    if (states >= maxStates || (states % 64 == 0 && Clock::now() >= deadline)) {
      complete = false;
      return;
    }
    ++states;
    // A set that ends in a resolution prices like its parent.
    if (st.path().empty() || space.actions[st.path().back()].kind != ActionKind::ResolveConflict)
      best.offer(st, st.evaluate());
    for (size_t i = from; i < order.size() && complete; ++i) {
      if (!st.legal(order[i])) continue;
      st.apply(order[i]);
      self(self, i + 1);
      st.undo();
    }
  };
  visit(visit, 0);
  BaselineResult r = best.finish(st);
  r.complete = complete;
  return r;
}

BaselineResult runGreedy(const ActionSpace &space, const DeviceParams &device, Clock::time_point deadline) {
  SearchState st(space, device);
  Best best;
  best.offer(st, st.evaluate());
  for (;;) {
    SearchState::Improvement next = st.bestImprovingAction(best.r.cost, deadline);
    if (next.action < 0) break;
    st.apply(uint32_t(next.action));
    best.offer(st, next.cost);
    if (Clock::now() >= deadline) {
      best.r.complete = false;
      break;
    }
  }
  return best.finish(st);
}

BaselineResult runRandom(const ActionSpace &space, const DeviceParams &device, int64_t samples, uint64_t seed,
                         Clock::time_point deadline) {
  SearchState st(space, device);
  Best best;
  best.offer(st, st.evaluate());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::vector<uint32_t> order(space.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  for (int64_t s = 0; s < samples; ++s) {
    if (Clock::now() >= deadline) {
      best.r.complete = false;
      break;
    }
    std::shuffle(order.begin(), order.end(), rng);
    double take = coin(rng);
    for (uint32_t id : order)
      if (coin(rng) < take && st.legal(id)) st.apply(id);
    best.offer(st, st.evaluate());
    st.reset();
  }
  return best.finish(st);
}

}  // namespace autopart
