#include "search/Mcts.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

#include <unistd.h>

#include "search/Mix.h"
#include "search/Polish.h"
#include "search/ProgressLine.h"

namespace autopart {

namespace {

using Clock = std::chrono::steady_clock;
// Q = kMeanWeight * mean + (1 - kMeanWeight) * best reward below a child.
constexpr double kMeanWeight = 0.5;

// Order-independent hash of an action set (Zobrist): fixed per action id,
// independent of the search seed.
uint64_t actionHash(uint32_t id) { return mix64((uint64_t(id) + 1) * 0x9E3779B97F4A7C15ull); }

struct Progress {
  std::mutex mu;
  std::atomic<int64_t> iterations{0};
  std::atomic<bool> refining{false};
  bool have = false;
  PlanCost best;
  void offer(const PlanCost &c) {
    std::lock_guard<std::mutex> lock(mu);
    if (!have || c.betterThan(best)) {
      best = c;
      have = true;
    }
  }
};

class Worker {
public:
  Worker(const SearchState &start, const MctsOptions &o, uint64_t seed, double baseStep, int64_t devices,
         double capacity, Progress &progress)
      : state_(start), o_(o), rng_(seed), baseStep_(baseStep), devices_(double(devices)),
        capacity_(capacity), progress_(progress) {}

  void run(int64_t iterations, Clock::time_point deadline) {
    root_ = nodeForState();
    for (int64_t i = 0; i < iterations; ++i) {
      if (Clock::now() >= deadline) {
        timedOut_ = true;
        break;
      }
      iterate();
      ++iterations_;
      progress_.iterations.fetch_add(1, std::memory_order_relaxed);
    }
    state_.reset();
  }

  // The o_.refineStarts best distinct plans, best first (ties: first seen).
  std::vector<PlanStart> top;
  void keepTop(const PlanCost &c) {
    size_t keep = size_t(std::max(1, o_.refineStarts));
    if (top.size() == keep && !c.betterThan(top.back().cost)) return;
    std::vector<uint32_t> key = state_.key();
    for (const PlanStart &s : top)
      if (s.key == key) return;
    auto at = std::find_if(top.begin(), top.end(), [&](const PlanStart &s) { return c.betterThan(s.cost); });
    top.insert(at, PlanStart{c, std::move(key), state_.path()});
    if (top.size() > keep) top.pop_back();
  }

  bool haveBest = false;
  PlanCost bestCost;
  std::vector<uint32_t> bestPath;
  int64_t iterations_ = 0;
  bool timedOut_ = false;
  size_t nodes() const { return nodes_.size(); }
  size_t evaluations() const { return state_.evaluations(); }

private:
  struct Node {
    std::vector<uint32_t> legal;  // in prior order
    std::vector<int32_t> child;   // parallel to the expanded prefix of legal
    double visits = 1, total = 0, best = -2;
    double stopReward = 0, stopVisits = 1;
  };

  double reward(const PlanCost &c) const {
    if (!c.feasible) return -(1.0 - capacity_ / std::max(1.0, double(c.peakBytes)));
    if (c.stepSeconds <= 0) return 1;
    return std::min(1.0, baseStep_ / c.stepSeconds / devices_);
  }

  void consider(const PlanCost &c) {
    if (!haveBest || c.betterThan(bestCost)) {
      haveBest = true;
      bestCost = c;
      bestPath = state_.path();
      progress_.offer(c);
    }
    if (c.feasible) keepTop(c);
  }

  // The node of the current state, created (and priced) if new.
  int32_t nodeForState() {
    std::vector<uint32_t> key = state_.key();
    uint64_t h = 0;
    for (uint32_t id : key) h ^= actionHash(id);
    std::vector<std::pair<std::vector<uint32_t>, int32_t>> &bucket = table_[h];
    for (const auto &[k, n] : bucket)
      if (k == key) return n;
    Node node;
    for (uint32_t id = 0; id < state_.space().size(); ++id)
      if (state_.legal(id)) node.legal.push_back(id);
    PlanCost c = state_.evaluate();
    consider(c);
    node.stopReward = reward(c);
    node.total = node.best = node.stopReward;
    nodes_.push_back(std::move(node));
    bucket.emplace_back(std::move(key), int32_t(nodes_.size() - 1));
    return int32_t(nodes_.size() - 1);
  }

  // Applies `id` as the path's action at `depth`, reusing the state the
  // previous iteration left when it agrees.
  void step(size_t depth, uint32_t id) {
    if (state_.path().size() > depth && state_.path()[depth] == id) return;
    while (state_.path().size() > depth) state_.undo();
    state_.apply(id);
  }

  double rollout(const Node &from) {
    if (o_.greedyRollouts) return greedyRollout(from);
    std::vector<uint32_t> order = from.legal;
    std::shuffle(order.begin(), order.end(), rng_);
    std::uniform_real_distribution<double> coin(0, 1);
    size_t depth = state_.path().size();
    for (uint32_t id : order)
      if (coin(rng_) < o_.rolloutTake && state_.legal(id)) state_.apply(id);
    if (state_.path().size() == depth) return from.stopReward;
    PlanCost c = state_.evaluate();
    consider(c);
    while (state_.path().size() > depth) state_.undo();
    return reward(c);
  }

  // The node's legal actions in prior order, each kept when it improves the
  // plan: one evaluation per candidate, no randomness.
  double greedyRollout(const Node &from) {
    size_t depth = state_.path().size();
    PlanCost here;
    bool priced = false;
    for (uint32_t id : from.legal) {
      if (!state_.legal(id)) continue;
      if (!priced) {
        here = state_.evaluate();
        priced = true;
      }
      state_.apply(id);
      PlanCost c = state_.evaluate();
      consider(c);
      if (c.betterThan(here))
        here = c;
      else
        state_.undo();
    }
    while (state_.path().size() > depth) state_.undo();
    return priced ? reward(here) : from.stopReward;
  }

  void iterate() {
    std::vector<int32_t> trail{root_};
    size_t depth = 0;
    double r = 0;
    for (;;) {
      Node &node = nodes_[size_t(trail.back())];
      size_t allowed = std::min(node.legal.size(), size_t(1 + 2 * std::sqrt(node.visits)));
      if (node.child.size() < allowed) {
        uint32_t id = node.legal[node.child.size()];
        step(depth, id);
        ++depth;
        int32_t c = nodeForState();
        nodes_[size_t(trail.back())].child.push_back(c);
        trail.push_back(c);
        r = rollout(nodes_[size_t(c)]);
        break;
      }
      // UCT over the expanded children and stopping here.
      double logN = std::log(node.visits);
      auto score = [&](double q, double n) { return q + o_.exploration * std::sqrt(logN / n); };
      double bestScore = score(node.stopReward, node.stopVisits);
      int chosen = -1;
      for (size_t k = 0; k < node.child.size(); ++k) {
        const Node &ch = nodes_[size_t(node.child[k])];
        double q = kMeanWeight * ch.total / ch.visits + (1 - kMeanWeight) * ch.best;
        double s = score(q, ch.visits);
        if (s > bestScore) {
          bestScore = s;
          chosen = int(k);
        }
      }
      if (chosen < 0) {
        node.stopVisits += 1;
        r = node.stopReward;
        break;
      }
      step(depth, node.legal[size_t(chosen)]);
      ++depth;
      trail.push_back(node.child[size_t(chosen)]);
      if (nodes_[size_t(trail.back())].legal.empty()) {
        r = nodes_[size_t(trail.back())].stopReward;
        break;
      }
    }
    for (int32_t n : trail) {
      Node &node = nodes_[size_t(n)];
      node.visits += 1;
      node.total += r;
      node.best = std::max(node.best, r);
    }
  }

  SearchState state_;
  const MctsOptions &o_;
  std::mt19937_64 rng_;
  double baseStep_, devices_, capacity_;
  Progress &progress_;
  std::vector<Node> nodes_;
  std::unordered_map<uint64_t, std::vector<std::pair<std::vector<uint32_t>, int32_t>>> table_;
  int32_t root_ = 0;
};

SearchProgress snapshot(Progress &progress, Clock::time_point start) {
  std::lock_guard<std::mutex> lock(progress.mu);
  return {progress.iterations.load(), progress.best.stepSeconds, progress.best.peakBytes, progress.best.feasible,
          std::chrono::duration<double>(Clock::now() - start).count(),
          progress.refining.load() ? "refining" : "tree search"};
}

// Every 250 ms until `done`: a progress line on stderr (`line`) and the
// caller's callback (when there is one).
std::thread progressReporter(Progress &progress, const std::atomic<bool> &done, Clock::time_point start, bool line,
                             double budgetSeconds, const ProgressCallback &callback) {
  return std::thread([&progress, &done, start, line, budgetSeconds, &callback] {
    while (!done.load()) {
      SearchProgress p = snapshot(progress, start);
      // `\033[K` clears what a longer line before left.
      if (line) std::fprintf(stderr, "\r%s\033[K", formatProgressLine(p, budgetSeconds).c_str());
      if (callback) callback(p);
      for (int i = 0; i < 5 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (line) std::fprintf(stderr, "\r%s\033[K\n", formatProgressLine(snapshot(progress, start), budgetSeconds).c_str());
  });
}

// Refines extra start `index` (priced `cost`) and makes it `r`'s plan when
// it beats it, or when `r` holds no plan yet (no shardings).
void refineExtraStart(const ActionSpace &space, const DeviceParams &device, const ShardingVector &start,
                      const PlanCost &cost, int index, Clock::time_point deadline, const RefineOptions &ro,
                      MctsResult &r) {
  RefineResult other = refinePlan(space, device, start, cost, deadline, ro);
  r.evaluations += other.evaluations;
  ++r.refineStarts;
  if (!r.shardings.empty() && !other.cost.betterThan(r.cost)) return;
  r.extraStartWon = index;
  r.actions.clear();
  r.refineMoves = other.moves;
  r.refinedValues = other.changedValues;
  r.annealAccepted = other.annealAccepted;
  r.cost = other.cost;
  r.shardings = std::move(other.shardings);
}

// The tree search's best plan (r.actions, r.cost), polished at the name
// level and refined per value from it and the workers' runners-up
// (search/Polish.h). Each phase gets what is left of the time budget, at
// least a tenth of it.
void polishAndRefine(const SearchState &base, const DeviceParams &device, const MctsOptions &o,
                     const std::vector<std::unique_ptr<Worker>> &workers, Clock::time_point start,
                     Clock::time_point deadline, MctsResult &r) {
  SearchState st = base;
  st.applyAll(r.actions);
  if (o.polish) {
    Clock::time_point polishEnd = std::max(deadline, Clock::now() + (deadline - start) / 10);
    size_t before = st.evaluations();
    polishActions(st, r.actions, r.cost, polishEnd);
    r.evaluations += int64_t(st.evaluations() - before);
  }
  r.shardings = st.shardings();
  r.evaluations += 1;
  if (!o.refine) return;
  Clock::time_point refineEnd = std::max(deadline, Clock::now() + (deadline - start) / 10);
  RefineOptions ro;
  ro.annealSteps = o.annealSteps;
  ro.seed = o.seed;
  std::vector<PlanStart> runnersUp;
  for (const auto &w : workers) runnersUp.insert(runnersUp.end(), w->top.begin(), w->top.end());
  // The other methods' plans (the ILP's) that beat the polished tree plan
  // as they are are refined first, so the refinement's budget goes to the
  // better basin (pt_bert_base on data=2,model=4 A100s: the tree's plan
  // refines for the whole budget and stays behind the ILP's unrefined
  // one); the others after the tree's starts, with what time is left.
  std::vector<ShardingVector> extras;
  if (o.extraStarts) extras = o.extraStarts();
  std::vector<PlanCost> extraCosts;
  std::vector<bool> first;
  for (const ShardingVector &s : extras) {
    extraCosts.push_back(priceStart(base.space(), device, s));
    first.push_back(extraCosts.back().betterThan(r.cost));
  }
  r.evaluations += int64_t(extraCosts.size());
  MctsResult early;  // the best extra start refined first
  early.extraStartWon = -1;
  for (size_t i = 0; i < first.size(); ++i)
    if (first[i]) refineExtraStart(base.space(), device, extras[i], extraCosts[i], int(i), refineEnd, ro, early);
  MultiStartRefinement best =
      refineFromStarts(st, device, r.actions, r.cost, std::move(runnersUp), o.refineStarts, refineEnd, ro);
  r.evaluations += early.evaluations + best.evaluations;
  r.refineStarts = early.refineStarts + best.starts;
  r.actions = std::move(best.actions);
  r.refineMoves = best.refined.moves;
  r.refinedValues = best.refined.changedValues;
  r.annealAccepted = best.refined.annealAccepted;
  r.cost = best.refined.cost;
  r.shardings = std::move(best.refined.shardings);
  // Ties go to the start refined first.
  if (early.extraStartWon >= 0 && !r.cost.betterThan(early.cost)) {
    r.extraStartWon = early.extraStartWon;
    r.actions.clear();
    r.refineMoves = early.refineMoves;
    r.refinedValues = early.refinedValues;
    r.annealAccepted = early.annealAccepted;
    r.cost = early.cost;
    r.shardings = std::move(early.shardings);
  }
  for (size_t i = 0; i < first.size(); ++i)
    if (!first[i]) refineExtraStart(base.space(), device, extras[i], extraCosts[i], int(i), refineEnd, ro, r);
}

}  // namespace

MctsResult runMcts(const ActionSpace &space, const DeviceParams &device, const MctsOptions &o) {
  Clock::time_point start = Clock::now();
  Clock::time_point deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  space.m->lineCol(0);  // fills the module's lazy line table before threads read it
  SearchState base(space, device);
  PlanCost baseCost = base.evaluate();
  Progress progress;
  progress.offer(baseCost);

  int threads = std::max(1, o.threads);
  std::vector<std::unique_ptr<Worker>> workers;
  for (int t = 0; t < threads; ++t)
    workers.push_back(std::make_unique<Worker>(base, o, o.seed * 0x9E3779B97F4A7C15ull + uint64_t(t) + 1,
                                               baseCost.stepSeconds, space.mesh.numDevices(), device.hbmCapacity,
                                               progress));
  std::atomic<bool> done{false};
  std::thread reporter;
  bool line = o.progress && isatty(2);
  if (line || o.onProgress) reporter = progressReporter(progress, done, start, line, o.seconds, o.onProgress);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    int64_t share = o.iterations / threads + (t < o.iterations % threads ? 1 : 0);
    pool.emplace_back([&, t, share] { workers[size_t(t)]->run(share, deadline); });
  }
  for (std::thread &th : pool) th.join();

  MctsResult r;
  r.cost = baseCost;
  for (const auto &w : workers) {
    r.iterations += w->iterations_;
    r.evaluations += int64_t(w->evaluations());
    r.nodes += w->nodes();
    r.timedOut |= w->timedOut_;
    if (w->haveBest && w->bestCost.betterThan(r.cost)) {
      r.cost = w->bestCost;
      r.actions = w->bestPath;
    }
  }
  // The reporter keeps going through the refinement, which may take most
  // of the budget.
  progress.offer(r.cost);
  progress.refining = true;
  polishAndRefine(base, device, o, workers, start, deadline, r);
  progress.offer(r.cost);
  done = true;
  if (reporter.joinable()) reporter.join();
  if (o.onProgress) o.onProgress(snapshot(progress, start));
  return r;
}

}  // namespace autopart
