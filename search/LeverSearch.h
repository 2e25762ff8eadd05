// Memory levers as the search's outermost decision. Sharding alone cannot
// fit every program (a 175B-parameter step keeps terabytes of activations);
// rematerialization and microbatching (levers/) can, at a price in compute
// and, for microbatching under FSDP, in gathers repeated per microbatch. The
// search buys memory only when memory binds: when the sharding search's plan
// does not fit, lever configurations are tried from the cheapest in compute
// up, each on the program rewritten by it and priced with the expert
// schedules (cheap: a few tactic applications), and the sharding search then
// runs on the fastest configuration under which a plan fits.
//
//   order: remat:selective, remat:dots, remat:full (no microbatching), then
//   remat:full with k = 2, 4, ... microbatches (divisors of the batch, each at
//   least twice the last) until a plan fits, then the cheaper policies at
//   that k.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "levers/Levers.h"
#include "search/SearchMethod.h"

namespace autopart {

// A program rewritten by one lever configuration, with what the search
// needs to run on it.
struct LeverProgram {
  LeverConfig config;
  std::unique_ptr<Module> module;
  OpId func = kNone;
  LeverResult result;
  std::unique_ptr<NamedDimensions> names;
};

struct LeverTrial {
  LeverConfig config;
  bool applied = false;
  std::string note;        // why not applied, or the rewrite's summary
  std::string bestMethod;  // the expert schedule that priced best
  PlanCost cost;
  double seconds = 0;      // rewriting and pricing
};

struct LeverSearchResult {
  std::optional<LeverProgram> chosen;  // none: no configuration fits
  // When none fits with the expert schedules: the configuration whose best
  // expert plan needs the least memory, for the search to try (it may find
  // a plan the experts miss).
  std::optional<LeverProgram> closest;
  std::vector<LeverTrial> trials;
};

using ModuleLoader = std::function<std::unique_ptr<Module>()>;

// Rewrites the program `load` gives with `config` and prepares it for the
// search; nullopt with the reason in `why` when a lever does not apply.
std::optional<LeverProgram> prepareLeverProgram(const ModuleLoader &load, const std::string &entry,
                                                const LeverConfig &config, std::string *why);

// `problem` gives the mesh and device (its module is the original program);
// the trials stop after `seconds`. `onTrial`, when set, hears of each trial
// as it ends (a progress display: they may take seconds each).
LeverSearchResult searchLevers(const ModuleLoader &load, const std::string &entry, const SearchProblem &problem,
                               double seconds, const std::function<void(const LeverTrial &)> &onTrial = {});

// The problem of a lever program: same mesh and device as `like`.
SearchProblem leverProblem(const LeverProgram &p, const SearchProblem &like);

// The best of a set of plans of one program, by PlanCost::betterThan.
struct BestPlan {
  std::optional<SearchOutcome> outcome;
  std::string method;
  void offer(const SearchOutcome &o, const std::string &name);
};

// Runs every expert schedule on `problem`, keeping the best plan in `best`
// and showing each to `each` (may be empty).
void expertPlans(const SearchProblem &problem, BestPlan &best,
                 const std::function<void(const SearchOutcome &)> &each = {});

// The expert schedules' plans of `problem`, the best kept in `best`. True
// when none comes within twice the device's memory: sharding alone will not
// fit, so the sharding-only search can be skipped.
bool shardingAloneHopeless(const SearchProblem &problem, BestPlan &best);

// What the levers cost and bought: the chosen plan (`after`, on the lever
// program's problem) against the best plan without levers (`before`), with
// the peak's parts on both sides. JSON fields: baseline_method,
// compute_seconds_before/after, peak_bytes_before/after, memory_before/after
// (bytes by category); `formatLeverCost` gives the report's lines.
nlohmann::json leverCost(const SearchProblem &before, const BestPlan &without, const SearchProblem &after,
                         const SearchOutcome &chosen);
std::string formatLeverCost(const nlohmann::json &cost);

}  // namespace autopart
