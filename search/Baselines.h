// Baselines for the search, on the same action space and cost model:
//
//   exhaustive  every legal set of actions (depth-first, each set once):
//               the true optimum of the space when it finishes
//   greedy      from the start state, apply the single action that improves
//               the plan most, until none does
//   random      the best of N random plans (each legal action taken with a
//               per-sample random probability)
//
// All return the best plan by PlanCost::betterThan (fits in memory first).
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "search/SearchState.h"

namespace autopart {

struct BaselineResult {
  std::vector<uint32_t> actions;
  PlanCost cost;
  ShardingVector shardings;
  int64_t evaluations = 0;
  bool complete = true;  // false: a state or time limit cut it short
};

BaselineResult runExhaustive(const ActionSpace &space, const DeviceParams &device, int64_t maxStates,
                             std::chrono::steady_clock::time_point deadline);
BaselineResult runGreedy(const ActionSpace &space, const DeviceParams &device,
                         std::chrono::steady_clock::time_point deadline);
BaselineResult runRandom(const ActionSpace &space, const DeviceParams &device, int64_t samples, uint64_t seed,
                         std::chrono::steady_clock::time_point deadline);

}  // namespace autopart
