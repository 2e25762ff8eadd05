// What the tree search (search/Mcts.h) does with its plans once the tree is
// grown: a name-level local search on the best one, then the per-value
// refinement (search/Refine.h) of it and of the runners-up, the best
// refined plan winning. Apart from Mcts.cpp because none of it walks the
// tree: it sees a SearchState and lists of actions, so it would polish the
// plan of any name-level search the same way.
//
//   polishActions(st, path, cost, deadline);     gen t5, data=2,model=4, tpu-v5e
//     [heads on "data", MLP hidden on "data"]
//     swap "data" and "model", descend greedily:
//     [MLP hidden on "model", batch on "data"]       7.5% faster
//   refineFromStarts(st, device, path, cost, runnersUp, 4, deadline, ro);
//     2-layer stand-in, data=64,model=8: the polished plan (sequence on
//     "data", heads on "model") refines to 0.770 ms, a runner-up (batch on
//     "model", sequence on "data") to 0.552 ms, and wins
//
// Deterministic under a deadline that does not pass: the moves are tried in
// a fixed order and ties go to the earlier plan.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "search/Refine.h"
#include "search/SearchState.h"

namespace autopart {

// A name-level plan to refine: what the tree search priced and where.
struct PlanStart {
  PlanCost cost;
  std::vector<uint32_t> key;   // SearchState::key: equal keys, equal plans
  std::vector<uint32_t> path;  // the actions in the order to apply them
};

// Local search from `path` (priced `cost`), updating both: add the first
// action that improves the plan, drop the first one whose removal does,
// and, when neither does, kick: swap two axes throughout the plan and
// descend greedily, or drop one action and descend greedily without it
// (best improving action each round, never the dropped one). The kicks make
// the moves single additions and removals cannot: what "data" splits goes
// on "model" and back; sequence on "model" becomes heads and MLP hidden on
// "model". Stops at a local optimum or the deadline; `st` is left on `path`.
void polishActions(SearchState &st, std::vector<uint32_t> &path, PlanCost &cost,
                   std::chrono::steady_clock::time_point deadline);

struct MultiStartRefinement {
  RefineResult refined;           // the best refined plan
  std::vector<uint32_t> actions;  // the name-level plan it started from
  int64_t starts = 0;             // plans refined
  int64_t evaluations = 0;        // over every refinement
};

// Refines the polished plan `st` holds (its actions `polished`, priced
// `polishedCost`), then, while the deadline allows, the best distinct
// `runnersUp` other than it, up to `maxStarts` plans in all; the best
// refined plan wins, ties to the earlier start. The descent is local: the
// best name-level plan is not always in the basin of the best per-value
// plan. Leaves `st` on the last start it refined.
MultiStartRefinement refineFromStarts(SearchState &st, const DeviceParams &device,
                                      const std::vector<uint32_t> &polished, const PlanCost &polishedCost,
                                      std::vector<PlanStart> runnersUp, int maxStarts,
                                      std::chrono::steady_clock::time_point deadline, const RefineOptions &options);

// The cost of `start` (any per-value plan, e.g. another method's).
PlanCost priceStart(const ActionSpace &space, const DeviceParams &device, const ShardingVector &start);

}  // namespace autopart
