// The built-in planning methods of `autopart search` (registry:
// search/SearchMethod.h): the MCTS search, the exhaustive, greedy and random
// baselines, and the expert tactic schedules applied by tactics/ (one
// method per schedule the tactic registry, tactics/TacticRegistry.h, lists).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>

#include <unistd.h>

#include "search/Baselines.h"
#include "search/Mcts.h"
#include "search/SearchMethod.h"
#include "tactics/ApplySchedule.h"
#include "tactics/TacticRegistry.h"

namespace autopart {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point deadlineOf(const SearchBudget &b) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(b.seconds));
}

SearchOutcome fromBaseline(const ActionSpace &space, BaselineResult r) {
  SearchOutcome out;
  out.shardings = std::move(r.shardings);
  for (uint32_t id : r.actions) out.actions.push_back(space.describe(id));
  out.evaluations = r.evaluations;
  out.complete = r.complete;
  return out;
}

// A portfolio: when the build has the ILP baseline (search/ilp/), the ILP
// runs on a thread of its own beside the tree search, with the whole budget
// (the deadline `--method ilp` has alone: a share of it cut the ILP short
// on perceiver_io, where alone it found the plan auto then lost to), and
// the tree search takes one thread fewer, so auto keeps to its threads.
// Its plan becomes one more start of the per-value refinement and, as it
// is, one more candidate for the final plan, so auto never returns a plan
// the ILP beats on the same cost model. Off with `--no-portfolio`, with
// `--axes` (the ILP uses every axis); an invalid future when off.
std::shared_future<SearchOutcome> startPortfolioIlp(const SearchProblem &p, const SearchBudget &b) {
  if (!b.portfolio || !p.axes.empty()) return {};
  const SearchMethodInfo *ilp = findSearchMethod("ilp");
  if (!ilp) return {};
  p.m.lineCol(0);  // fills the module's lazy line table before two threads read it
  if (b.progress && isatty(2)) std::fprintf(stderr, "mcts: solving the ILP beside the tree search\n");
  return std::async(std::launch::async, [ilp, &p, b] { return ilp->run(p, b); }).share();
}

// The end of the portfolio: the ILP's plan and the expert schedules' plans
// (cheap to apply), priced on the problem's cost model, replace the
// search's plan when they beat it. Returns what won ("": the search's plan).
std::string bestPortfolioPlanOver(const SearchProblem &p, const SearchBudget &b,
                                  const std::shared_future<SearchOutcome> &ilp, SearchOutcome &out) {
  if (!b.portfolio) return "";
  PlanCost best = priceShardings(p, out.shardings);
  std::string winner;
  auto offer = [&](const std::string &name, SearchOutcome e) {
    if (!e.found) return;
    PlanCost c = priceShardings(p, e.shardings);
    if (!c.betterThan(best)) return;
    best = c;
    winner = name;
    out.shardings = std::move(e.shardings);
  };
  if (ilp.valid()) offer("the ILP's plan", ilp.get());
  findSearchMethod("mcts");  // lets the providers add the experts
  for (const SearchMethodInfo &m : searchMethodRegistry())
    if (std::find(m.tags.begin(), m.tags.end(), "expert") != m.tags.end())
      offer("expert schedule " + m.name + "'s plan", m.run(p, b));
  return winner;
}

SearchMethodRegistration mcts("mcts", "Monte Carlo Tree Search over the named-dimension actions", {"search"},
                              [](const SearchProblem &p, const SearchBudget &b) {
                                ActionSpace space = buildActionSpace(p);
                                MctsOptions o;
                                o.exploration = b.exploration;
                                if (b.iterations > 0) o.iterations = b.iterations;
                                o.seconds = b.seconds;
                                o.seed = b.seed;
                                o.threads = b.threads;
                                o.progress = b.progress;
                                o.onProgress = b.onProgress;
                                o.greedyRollouts = b.greedyRollouts;
                                o.annealSteps = b.annealSteps;
                                o.refineStarts = b.refineStarts;
                                std::shared_future<SearchOutcome> ilp = startPortfolioIlp(p, b);
                                if (ilp.valid()) {
                                  o.threads = std::max(1, o.threads - 1);
                                  o.extraStarts = [&ilp] {
                                    std::vector<ShardingVector> starts;
                                    if (ilp.get().found) starts.push_back(ilp.get().shardings);
                                    return starts;
                                  };
                                }
                                MctsResult r = runMcts(space, p.device, o);
                                SearchOutcome out;
                                out.shardings = std::move(r.shardings);
                                for (uint32_t id : r.actions) out.actions.push_back(space.describe(id));
                                if (r.extraStartWon >= 0)
                                  out.actions.push_back("portfolio: refined from the ILP's plan, which beat the "
                                                        "tree's plans");
                                if (r.refinedValues > 0)
                                  out.actions.push_back("refine: " + std::to_string(r.refineMoves) +
                                                        " descent moves, " + std::to_string(r.annealAccepted) +
                                                        " annealing moves, " + std::to_string(r.refinedValues) +
                                                        " values re-sharded, best of " +
                                                        std::to_string(r.refineStarts) + " starts");
                                if (std::string e = bestPortfolioPlanOver(p, b, ilp, out); !e.empty())
                                  out.actions = {"portfolio: " + e + ", which beat the search's"};
                                out.evaluations = r.evaluations;
                                out.iterations = r.iterations;
                                out.complete = !r.timedOut;
                                if (r.timedOut) out.note = "time budget reached";
                                return out;
                              });

SearchMethodRegistration exhaustive("exhaustive", "Every legal set of actions (small spaces: the true optimum)",
                                    {"baseline"}, [](const SearchProblem &p, const SearchBudget &b) {
                                      ActionSpace space = buildActionSpace(p);
                                      int64_t maxStates = b.iterations > 0 ? b.iterations : 1000000;
                                      SearchOutcome out = fromBaseline(
                                          space, runExhaustive(space, p.device, maxStates, deadlineOf(b)));
                                      if (!out.complete) out.note = "did not finish: best of the states visited";
                                      return out;
                                    });

SearchMethodRegistration greedy("greedy", "Apply the most improving action until none improves", {"baseline"},
                                [](const SearchProblem &p, const SearchBudget &b) {
                                  ActionSpace space = buildActionSpace(p);
                                  SearchOutcome out = fromBaseline(space, runGreedy(space, p.device, deadlineOf(b)));
                                  if (!out.complete) out.note = "time budget reached";
                                  return out;
                                });

SearchMethodRegistration random("random", "Best of N random plans", {"baseline"},
                                [](const SearchProblem &p, const SearchBudget &b) {
                                  ActionSpace space = buildActionSpace(p);
                                  int64_t samples = b.iterations > 0 ? b.iterations : 1000;
                                  SearchOutcome out = fromBaseline(
                                      space, runRandom(space, p.device, samples, b.seed, deadlineOf(b)));
                                  if (!out.complete) out.note = "time budget reached";
                                  return out;
                                });

// An expert schedule from tactics/, applied on top of the problem's base.
SearchMethodFn expert(std::string schedule) {
  return [schedule](const SearchProblem &p, const SearchBudget &) {
    SearchOutcome out;
    Diagnostics diags;
    std::optional<TacticSchedule> s = parseTacticSchedule(schedule, p.mesh, diags);
    if (!s) {
      out.found = false;
      out.note = diags.errorText();
      return out;
    }
    out.shardings = p.base;
    ScheduleContext ctx{p.m, p.func, p.mesh, p.meshName, p.names};
    std::optional<nlohmann::json> report = applySchedule(ctx, *s, out.shardings, AutoTacticFn{}, diags);
    if (!report) {
      out.found = false;
      out.note = diags.errorText();
      return out;
    }
    for (const nlohmann::json &e : *report)
      out.actions.push_back(e["tactic"].get<std::string>() + " on \"" + e["axis"].get<std::string>() + "\": " +
                            std::to_string(e["dims_sharded"].get<int64_t>()) + " dims");
    return out;
  };
}

// The tactics register from their own files, in an order this file cannot
// rely on at start-up, so their expert schedules are added on first lookup.
SearchMethodProviderRegistration experts([](std::vector<SearchMethodInfo> &methods) {
  for (const ExpertSchedule &e : expertSchedules())
    methods.push_back({e.name, e.description, {"expert"}, expert(e.schedule)});
});

}  // namespace

}  // namespace autopart
