// The registry of planning methods `autopart search` compares, all priced by
// the same cost model (sim/Simulator.h step time, sim/Memory.h peak memory):
// the MCTS search, the exhaustive / greedy / random baselines, the expert
// tactic schedules, and any method another file registers (the ILP baseline
// plugs in here, in search/ilp/IlpMethod.cpp, without touching the driver):
//
//   static SearchMethodRegistration reg("ilp", "Alpa-style ILP over per-op strategies (CBC)",
//       {"baseline"}, [](const SearchProblem &p, const SearchBudget &b) {
//         SearchOutcome out;
//         out.shardings = ...;   // one sharding per ValueId
//         return out;            // the driver prices it and times the call
//       });
//
// A method fills `shardings` (and, when it has them, the action list); the
// driver times the call and prices the plan itself, so every row of the
// comparison uses the same numbers.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/NamedDimensions.h"
#include "search/Mcts.h"
#include "search/SearchState.h"
#include "sim/Memory.h"

namespace autopart {

struct SearchProblem {
  const Module &m;
  OpId func;
  Mesh mesh;
  std::string meshName;
  const NamedDimensions &names;
  DeviceParams device;
  ShardingVector base;             // start state (input annotations, earlier tactics)
  std::vector<std::string> axes;   // axes the search may use (empty: all)
};

struct SearchBudget {
  double seconds = 30;      // wall-clock cap
  int64_t iterations = 0;   // 0: the method's default
  uint64_t seed = 0;
  int threads = 2;
  bool progress = false;    // progress line on stderr
  ProgressCallback onProgress;  // mcts: called while it runs (search/Mcts.h)
  double exploration = 0.7; // UCT constant (mcts)
  bool greedyRollouts = false;  // mcts: greedy instead of random rollouts
  int64_t annealSteps = 50000;  // mcts: annealing proposals in the refinement
  int refineStarts = 4;         // mcts: name-level plans refined (best wins)
  bool portfolio = true;        // mcts: the ILP's plan (when built in) as one more start
};

struct SearchOutcome {
  bool found = true;         // false: the method did not produce a plan
  std::string note;          // why not, or what limited it
  bool complete = true;      // false when a budget cut the method short
  ShardingVector shardings;  // the plan
  std::vector<std::string> actions;  // what the method did, for reports
  int64_t evaluations = 0;
  int64_t iterations = 0;
  // Filled by runSearchMethod:
  PlanCost cost;
  double seconds = 0;
};

using SearchMethodFn = std::function<SearchOutcome(const SearchProblem &, const SearchBudget &)>;

struct SearchMethodInfo {
  std::string name;
  std::string description;
  std::vector<std::string> tags;  // "search", "baseline", "expert"
  SearchMethodFn run;
  int listRank = 0;  // see SearchMethodRegistration
};

// Every method: those registered directly, then those the providers add.
std::vector<SearchMethodInfo> &searchMethodRegistry();
const SearchMethodInfo *findSearchMethod(const std::string &name);

// The registry lists methods (`--method all`, `baseline`, the unknown-method
// message) by `listRank`, then in registration order. Registrations in
// different files run in the order the linker puts the files, which follows
// their paths; a method whose place in the list should not depend on where
// its file lives gives a rank (lower: listed earlier).
struct SearchMethodRegistration {
  SearchMethodRegistration(std::string name, std::string description, std::vector<std::string> tags,
                           SearchMethodFn run, int listRank = 0);
};

// Methods that can only be listed once every static object is built (the
// expert schedules come from the tactic registry, which other files fill):
// a provider appends them, once, on the first lookup (main thread, after
// start-up).
using SearchMethodProvider = std::function<void(std::vector<SearchMethodInfo> &)>;

struct SearchMethodProviderRegistration {
  explicit SearchMethodProviderRegistration(SearchMethodProvider provide);
};

// Runs a method, times it and prices its plan on the problem's cost model.
SearchOutcome runSearchMethod(const SearchMethodInfo &method, const SearchProblem &problem,
                              const SearchBudget &budget);

// Step time and peak memory of an arbitrary plan on the problem's device.
PlanCost priceShardings(const SearchProblem &problem, const ShardingVector &shardings);

// The peak memory of a plan with what it is made of (sim/Memory.h), for
// reports: slower than priceShardings.
MemoryReport describePlanMemory(const SearchProblem &problem, const ShardingVector &shardings);

// The action space of a problem (what mcts, exhaustive, greedy, random walk).
ActionSpace buildActionSpace(const SearchProblem &problem);

}  // namespace autopart
