// The ILP baseline of the search, after Alpa's intra-operator pass (Zheng et
// al., OSDI 2022) and XLA's auto-sharding: every op of the entry function
// picks one strategy -- an assignment of each mesh axis to at most one factor
// of the op's sharding rule -- and an integer program minimises the step time
// the simulator would charge: compute and reduction collectives per strategy,
// plus a resharding cost on every producer -> consumer edge, under a memory
// constraint. Solved with CBC. Formulation and pruning: docs/ilp.md.
//
//   %y = stablehlo.dot_general %x, %w  (256x1024 . 1024x1024, f32) on model=2
//   rule ([i, j], [j, k])->([i, k]) reduction={j}; strategies:
//     {}          replicated                        compute 2.15 ms
//     i <- model  x [{"model"}, {}], y [{"model"}, {}]  1.07 ms
//     j <- model  x [{}, {"model"}], w [{"model"}, {}]  1.07 ms + all-reduce of y
//     k <- model  w [{}, {"model"}], y [{}, {"model"}]  1.07 ms
//   with %x an argument the solver picks i <- model (no collective, and
//   %x's sharding is free); with HBM too small for a replicated %w it picks
//   k <- model (w split) instead.
//
// Costs come from the simulator (sim/CostModel.h costOp on the strategy's
// shardings, sim/Collective.h reshardCollectives + sim/CollectiveCost.h for
// edges) and memory from its liveness walk (sim/Memory.h), so the ILP
// objective and a simulation of the returned plan agree up to the
// simulator's own choice of op shardings (see docs/ilp.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "sim/DeviceParams.h"
#include "sim/Memory.h"
#include "sim/Simulator.h"
#include "tactics/NamePropagation.h"

namespace autopart {

struct IlpOptions {
  // Strategies kept per op after removing duplicates (the replicated one is
  // always kept; the others by increasing op cost).
  int maxStrategiesPerOp = 32;
  // Shardings enumerated per argument / constant / block argument.
  int maxStrategiesPerValue = 32;
  // Elementwise ops (and call/loop boundaries) take their producer's strategy
  // instead of being variables of their own (Alpa's "follow").
  bool mergeElementwise = true;
  // Wall-clock limit of the whole ILP (build, root LP and every memory
  // round's solve); the best plan found so far is returned.
  double timeLimitSeconds = 60;
  // Memory constraint: per-device bytes live at the peak <= capacity.
  bool memoryConstraint = true;
  // Re-solves with the peak of the previous plan added as a constraint.
  int memoryRounds = 4;
  // Function results without an `sdy.sharding` take the sharding of the value
  // returned (as `autopart plan` writes them); false: they are replicated and
  // the ILP charges the gather.
  bool freeResultShardings = true;
  // Loops without a static trip count.
  double unknownTripCount = 1;
};

struct IlpPlan {
  // Per ValueId: the sharding the plan gives every tensor the ILP decided
  // (arguments, op results, block arguments); nullopt for other values.
  ShardingVector shardings;
  double objectiveSeconds = 0;   // the ILP's step time
  double boundSeconds = 0;       // CBC's lower bound
  bool provedOptimal = false;
  // Problem size (of the last solve).
  int64_t numOps = 0;        // op sites with a node
  int64_t numGroups = 0;     // decision groups after merging
  int64_t numVariables = 0;  // strategy (binary) + edge (continuous) columns
  int64_t numBinaries = 0;
  int64_t numConstraints = 0;
  int64_t numEdges = 0;      // producer->consumer edges needing variables
  int64_t memoryRows = 0;
  int solves = 0;
  double buildSeconds = 0;   // strategies, costs and matrix
  double solveSeconds = 0;   // CBC, all rounds
  // The ILP's estimate of the peak (max over its memory rows) and whether the
  // last liveness walk of the plan fits the capacity.
  double memoryEstimateBytes = 0;
  bool memoryFits = true;
  std::vector<std::string> warnings;
};

// Solves the ILP for `func` on `mesh` (named `meshName` in the shardings it
// returns). Arguments or results that already carry `sdy.sharding` keep it.
// Returns nullopt with `error` set when no plan fits the memory capacity or
// CBC finds none within the time limit.
std::optional<IlpPlan> solveIlpPlan(const Module &m, OpId func, const Mesh &mesh,
                                    const std::string &meshName, const DeviceParams &device,
                                    const IlpOptions &opts, std::string *error);

struct IlpPlanSimulation {
  StepSummary step;
  MemoryReport memory;
};

// The simulator's view of a plan: every value's sharding from `plan` on
// `mesh`, results without a declared sharding taking their returned values'
// (as `autopart plan` writes them) when `freeResultShardings`.
IlpPlanSimulation simulateIlpPlan(const Module &m, OpId func, const IlpPlan &plan, const Mesh &mesh,
                                  const std::string &meshName, const DeviceParams &device,
                                  const IlpOptions &opts = {});

}  // namespace autopart
