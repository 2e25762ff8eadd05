// Per-value refinement of a plan, the last phase of auto: coordinate descent
// over the sharding of small groups of values, each move priced
// incrementally by the simulator. The name-level actions (search/Action.h)
// split a name everywhere or nowhere; an op-level plan (the ILP's) can split
// the batch in the high-resolution layers of a U-Net, where activations are
// large and weights small, and leave it whole in the low-resolution ones,
// where the gradient all-reduce of large weights would cost more than the
// compute it saves. Refinement reaches such plans from the one MCTS found.
//
// What moves together is decided once, from the program alone
// (search/RefineUnits.h): a unit is a value and the elementwise ops that
// follow it (same shape, as the ILP merges them), so moving it never
// reshards inside the chain; units that look alike (layer 3 and layer 17 of
// an unrolled model) form a class and move together, so a 96-layer stack
// costs about one layer's moves. The moves (search/RefineMoves.h) give
// every value of a class one candidate sharding (each search axis on one
// dimension it divides, or on none: on a 1-D mesh of rank-4 values, 5
// candidates), or add, remove or move an axis on a window of a name's
// values.
//
//   refinePlan(space, device, plan, cost, deadline)
//     pass 1: class {conv#3 unit}: replicated -> [{"data"}, {}, {}, {}]
//             (step 1.48 ms -> 1.44 ms), ...
//     stops when a pass improves nothing, or at the deadline.
//
// A move is kept only when the plan fits in memory and is better by
// PlanCost::betterThan; values fixed by the input or set in the base state
// (earlier tactics) are never moved. Deterministic: classes in program
// order, candidates in a fixed order, the first best candidate kept.
#pragma once

#include <chrono>
#include <cstdint>

#include "search/SearchState.h"

namespace autopart {

struct RefineOptions {
  // Simulated-annealing proposals after the first descent, followed by a
  // second descent (0: descent only). With a count, not a deadline, the
  // result depends only on the seed.
  int64_t annealSteps = 0;
  uint64_t seed = 0;
};

struct RefineResult {
  ShardingVector shardings;
  PlanCost cost;
  int64_t moves = 0;          // accepted class moves
  int64_t changedValues = 0;  // values whose sharding differs from the start
  int64_t evaluations = 0;    // simulator step evaluations
  int64_t annealProposals = 0;
  int64_t annealAccepted = 0;
  bool timedOut = false;
};

// Refines `start` (priced `startCost` on `device`); an infeasible start is
// returned unchanged.
RefineResult refinePlan(const ActionSpace &space, const DeviceParams &device, const ShardingVector &start,
                        const PlanCost &startCost, std::chrono::steady_clock::time_point deadline,
                        const RefineOptions &options = {});

}  // namespace autopart
