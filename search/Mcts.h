// Monte Carlo Tree Search over the action space (search/Action.h), TOAST's
// automatic partitioner. A node is a set of applied actions (a transposition
// table merges the orders that reach the same set); its children are the
// legal actions, expanded in prior order (bytes the action covers, largest
// first) as the node's visits grow (progressive widening), plus "stop here".
// Each iteration walks the tree by UCT, expands one child, finishes the plan
// with a rollout (random, or greedy with MctsOptions::greedyRollouts) and
// backs the reward up:
//
//   reward(feasible)   = min(1, base step / step / devices)   in (0, 1]
//   reward(infeasible) = -(1 - HBM / peak)                     in (-1, 0)
//
// so an over-memory plan never beats one that fits, and among them less
// memory is better. Q is the mean of mean and best reward (plans are
// deterministic, the best one found below a node matters). Root
// parallelism: each thread grows its own tree on its own SearchState copy
// with its own seed and iteration share; the best plan over threads (ties to
// the lower thread) is then polished by a name-level local search and
// refined value by value (search/Refine.h: what names cannot express), as
// are the next best distinct plans the tree priced while time is left
// (MctsOptions::refineStarts), the best refined plan winning
// (search/Polish.h). With an iteration budget the result depends only on
// the seed; a time budget that cuts the search short does not.
//
//   MctsOptions o;  o.iterations = 2000;  o.seed = 1;
//   MctsResult r = runMcts(space, device, o);
//   r.actions -> [shard n0 on "data", shard n6 on "model", ...]
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "search/SearchState.h"

namespace autopart {

// What a running search has found so far, for a progress display: the
// iterations over all threads, the best plan's step time and peak memory,
// the wall-clock time since it started, and the phase ("tree search", then
// "refining" the best plans per value; the best is updated as each phase
// ends).
struct SearchProgress {
  int64_t iterations = 0;
  double bestStepSeconds = 0;
  int64_t bestPeakBytes = 0;
  bool bestFits = true;
  double seconds = 0;
  std::string phase = "tree search";
};

// Called from a reporter thread every 250 ms while the search runs, once as
// it starts and once when it is done (not concurrently).
using ProgressCallback = std::function<void(const SearchProgress &)>;

struct MctsOptions {
  double exploration = 0.7;
  int64_t iterations = 2000;  // over all threads
  double seconds = 30;        // wall-clock cap
  uint64_t seed = 0;
  int threads = 2;
  bool progress = false;      // progress line on stderr (on a terminal)
  ProgressCallback onProgress;  // optional, e.g. Python's progress=
  double rolloutTake = 0.5;   // chance a random rollout takes each legal action
  // Greedy rollouts: the legal actions in prior order, each kept when it
  // improves the plan (one evaluation per action, deterministic) instead of
  // a random subset (one evaluation).
  bool greedyRollouts = false;
  bool polish = true;
  // Per-value refinement of the polished plan (search/Refine.h).
  bool refine = true;
  // Simulated-annealing proposals inside the refinement (0: descent only).
  int64_t annealSteps = 50000;
  // Distinct name-level plans refined, best first (the polished best, then
  // runners-up while time is left); the best refined plan wins. The descent
  // is local: the best name-level plan is not always in the basin of the
  // best per-value plan (batch on "model" with the sequence on "data" can
  // refine past heads on "model" although it starts behind).
  int refineStarts = 4;
  // Per-value plans from other methods (the ILP's, solved on its own thread
  // while the tree grows): called once the tree search is done, it may
  // block until they are ready. Refined like the runners-up (before the
  // tree's own starts when one beats the polished tree plan as it is); the
  // best refined plan wins.
  std::function<std::vector<ShardingVector>()> extraStarts;
};

struct MctsResult {
  std::vector<uint32_t> actions;  // in the order to apply them
  PlanCost cost;
  ShardingVector shardings;
  int64_t iterations = 0;
  int64_t evaluations = 0;
  size_t nodes = 0;
  bool timedOut = false;
  int64_t refineMoves = 0;     // accepted refinement moves
  int64_t refinedValues = 0;   // values the refinement re-sharded
  int64_t annealAccepted = 0;  // annealing moves taken (uphill ones too)
  int64_t refineStarts = 0;    // name-level plans refined (the best one wins)
  // Index into what MctsOptions::extraStarts returned of the start the plan
  // was refined from (-1: one of the tree's own plans; `actions` are then
  // its path).
  int extraStartWon = -1;
};

MctsResult runMcts(const ActionSpace &space, const DeviceParams &device, const MctsOptions &options);

}  // namespace autopart
