// `autopart search FILE --mesh data=8,model=4 [--device h100-80gb]
//  [--method mcts|exhaustive|greedy|random|expert|all|NAME,...]
//  [--time-budget S] [--iterations N] [--seed N] [--json] [-o plan.mlir]`:
// plans the program with each chosen method (search/SearchMethod.h) and
// prints, on one cost model, every plan's step time, peak memory, whether it
// fits, and how long the method took. `-o` writes the first method's plan
// as the annotated program (as `autopart plan` writes it).
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "export/AnnotateModule.h"
#include "export/PinPlan.h"
#include "export/PreserveText.h"
#include "search/LeverSearch.h"
#include "search/SearchMethod.h"
#include "sim/Hardware.h"
#include "support/Format.h"
#include "tactics/ApplySchedule.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"
#include "tools/MeshSpec.h"

namespace autopart {
namespace {

struct SearchOptions {
  std::string file;
  std::string mesh;
  std::string device = "h100-80gb";
  std::string method = "mcts";
  std::string output;
  std::string function;
  double timeBudget = 30;
  int64_t iterations = 0;
  uint64_t seed = 0;
  double exploration = 0.7;
  int threads = 2;
  std::string rollout = "random";
  int64_t annealSteps = 50000;
  int refineStarts = 4;
  bool noPortfolio = false;
  std::string levers = "auto";
  bool json = false;
  bool reprint = false;
  bool noPropagate = false;
};

bool hasTag(const SearchMethodInfo &m, const std::string &tag) {
  return std::find(m.tags.begin(), m.tags.end(), tag) != m.tags.end();
}

// `mcts,expert` -> the methods in that order; groups: all, expert, baseline.
std::vector<const SearchMethodInfo *> selectMethods(const std::string &spec, std::string *error) {
  std::vector<const SearchMethodInfo *> out;
  auto add = [&](const SearchMethodInfo *m) {
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (item == "all" || item == "expert" || item == "baseline") {
      if (item == "all") add(findSearchMethod("mcts"));
      for (const SearchMethodInfo &m : searchMethodRegistry())
        if (item == "all" || hasTag(m, item)) add(&m);
      continue;
    }
    const SearchMethodInfo *m = findSearchMethod(item);
    if (!m) {
      *error = "unknown method '" + item + "' (known:";
      for (const SearchMethodInfo &k : searchMethodRegistry()) *error += " " + k.name;
      *error += ", expert, baseline, all)";
      return {};
    }
    add(m);
  }
  if (out.empty()) *error = "no method given";
  return out;
}

int runSearch(const SearchOptions &o) {
  std::string err;
  std::vector<const SearchMethodInfo *> methods = selectMethods(o.method, &err);
  if (methods.empty()) {
    std::cerr << "autopart search: error: --method: " << err << "\n";
    return 1;
  }
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  std::string meshName;
  std::optional<Mesh> mesh = resolveMesh(*m, o.mesh, "search", &meshName);
  if (!mesh) return 1;
  Diagnostics hwDiags;
  std::optional<Hardware> hw = loadHardware(o.device, hwDiags);
  if (!hw) {
    printDiagnostics(hwDiags, "autopart search", "--device");
    return 1;
  }
  OpId func = findPlannableEntry(*m, o.function, "search");
  if (func == kNone) return 1;

  Diagnostics diags;
  NamedDimensions names = analyzeNamedDimensions(*m, {}, &diags);
  printDiagnostics(diags, "autopart search");
  ShardingVector base(m->values.size());
  // The input's shardings, completed as XLA would, are fixed constraints.
  CompletionStats completion;
  if (!seedInputShardings(*m, func, !o.noPropagate, base, diags, &completion)) {
    printDiagnostics(diags, "autopart search");
    return 1;
  }
  SearchProblem problem{*m, func, *mesh, meshName, names, hardwareDeviceParams(*hw, *mesh), base, {}};
  SearchBudget budget;
  budget.seconds = o.timeBudget;
  budget.iterations = o.iterations;
  budget.seed = o.seed;
  budget.threads = o.threads;
  budget.exploration = o.exploration;
  budget.greedyRollouts = o.rollout == "greedy";
  budget.annealSteps = o.annealSteps;
  budget.refineStarts = o.refineStarts;
  budget.portfolio = !o.noPortfolio;
  budget.progress = !o.json;

  // Memory levers: given (`--levers remat:full,microbatch:8`), or chosen
  // when the first method's plan does not fit (`auto`, search/LeverSearch.h).
  std::string source = *m->source, fileName = m->fileName;
  ModuleLoader reload = [&]() -> std::unique_ptr<Module> {
    ParseError perr;
    return parseModule(source, fileName, &perr);
  };
  std::optional<LeverProgram> leverProgram;
  LeverSearchResult leverSearch;
  std::optional<SearchProblem> leverSearchProblem;
  std::vector<SearchOutcome> results;
  BestPlan withoutLevers;  // to say what the levers cost
  auto runAll = [&](const SearchProblem &pr, const SearchBudget &b) {
    results.clear();
    for (const SearchMethodInfo *method : methods) results.push_back(runSearchMethod(*method, pr, b));
  };
  if (o.levers != "auto" && o.levers != "none") {
    std::vector<std::string> entries;
    std::stringstream ss(o.levers);
    for (std::string e; std::getline(ss, e, ',');)
      if (!e.empty()) entries.push_back(e);
    Diagnostics ldiags;
    std::optional<LeverConfig> config = parseLevers(entries, ldiags);
    if (!config) {
      printDiagnostics(ldiags, "autopart search", "--levers");
      return 1;
    }
    std::string why;
    leverProgram = prepareLeverProgram(reload, o.function, *config, &why);
    if (!leverProgram) {
      std::cerr << "autopart search: error: --levers: " << why << "\n";
      return 1;
    }
    leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
    runAll(*leverSearchProblem, budget);
  } else {
    // When no expert plan comes within twice the device's memory, sharding
    // alone will not fit either: go to the levers without searching first.
    bool hopeless = o.levers == "auto" && shardingAloneHopeless(problem, withoutLevers);
    if (!hopeless) {
      runAll(problem, budget);
      for (size_t i = 0; i < methods.size(); ++i) withoutLevers.offer(results[i], methods[i]->name);
    }
    if (o.levers == "auto" && (hopeless || (results[0].found && !results[0].cost.feasible))) {
      if (budget.progress) std::cerr << "no plan fits: trying memory levers\n";
      leverSearch = searchLevers(reload, o.function, problem, budget.seconds);
      if (leverSearch.chosen) {
        leverProgram = std::move(leverSearch.chosen);
        leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
        runAll(*leverSearchProblem, budget);
      } else if (leverSearch.closest) {
        // No expert plan fits under any configuration tried: the search
        // may still find one on the closest; else keep the plans without.
        std::vector<SearchOutcome> without = results;
        SearchProblem closest = leverProblem(*leverSearch.closest, problem);
        runAll(closest, budget);
        if (results[0].found && results[0].cost.feasible) {
          leverProgram = std::move(leverSearch.closest);
          leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
        } else if (hopeless) {
          runAll(problem, budget);
        } else {
          results = std::move(without);
        }
      } else if (hopeless) {
        runAll(problem, budget);
      }
    }
  }
  const SearchProblem &finalProblem = leverSearchProblem ? *leverSearchProblem : problem;
  Module &out = leverProgram ? *leverProgram->module : *m;
  OpId outFunc = leverProgram ? leverProgram->func : func;

  nlohmann::json j;
  j["mesh"] = mesh->str();
  j["devices"] = mesh->numDevices();
  j["device"] = problem.device.name;
  j["hbm_bytes"] = problem.device.hbmCapacity;
  j["names"] = finalProblem.names.names.size();
  j["input_shardings"] = {{"user", completion.userShardings},
                          {"propagated", completion.propagated},
                          {"updates", completion.propagation.updates}};
  j["actions"] = buildActionSpace(finalProblem).size();
  j["levers"] = leverProgram ? formatLevers(leverProgram->config) : "none";
  if (leverProgram) j["levers_summary"] = leverProgram->result.summary;
  // What the levers cost and bought, against the best plan without them,
  // and what the peak is made of before and after.
  nlohmann::json cost = leverProgram ? leverCost(problem, withoutLevers, finalProblem, results[0]) : nullptr;
  if (!cost.is_null()) j["levers_cost"] = cost;
  j["lever_trials"] = nlohmann::json::array();
  for (const LeverTrial &t : leverSearch.trials)
    j["lever_trials"].push_back({{"levers", formatLevers(t.config)}, {"applied", t.applied}, {"note", t.note},
                                 {"best_expert", t.bestMethod}, {"step_seconds", t.cost.stepSeconds},
                                 {"peak_bytes", t.cost.peakBytes}, {"fits", t.applied && t.cost.feasible},
                                 {"seconds", t.seconds}});
  j["results"] = nlohmann::json::array();
  for (size_t i = 0; i < methods.size(); ++i) {
    const SearchOutcome &r = results[i];
    nlohmann::json e = {{"method", methods[i]->name}, {"found", r.found}, {"search_seconds", r.seconds},
                        {"evaluations", r.evaluations}, {"iterations", r.iterations}, {"complete", r.complete},
                        {"note", r.note}};
    if (r.found) {
      e["step_seconds"] = r.cost.stepSeconds;
      e["compute_seconds"] = r.cost.computeSeconds;
      e["communication_seconds"] = r.cost.commSeconds;
      e["peak_bytes"] = r.cost.peakBytes;
      e["fits"] = r.cost.feasible;
      e["actions"] = r.actions;
    }
    j["results"].push_back(e);
  }
  j["chosen"] = methods[0]->name;

  if (!o.output.empty()) {
    const SearchOutcome &r = results[0];
    if (!r.found) {
      std::cerr << "autopart search: error: -o: method '" << methods[0]->name << "' found no plan: " << r.note << "\n";
      return 2;
    }
    auto current = [&](ValueId v) -> const TensorSharding * { return r.shardings[v] ? &*r.shardings[v] : nullptr; };
    AnnotateOptions annotate;
    annotate.meshName = meshName;
    annotatePlan(out, outFunc, *mesh, annotate, current);
    // As `autopart plan`: pin what XLA's propagation would otherwise change.
    if (!pinAgainstPropagation(out, outFunc, meshName, current, diags)) {
      printDiagnostics(diags, "autopart search");
      return 1;
    }
    if (!writePlannedModule(out, o.output, o.reprint || leverProgram.has_value(), diags)) {
      printDiagnostics(diags, "autopart search");
      return 1;
    }
  }

  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "mesh " << mesh->str() << " (" << mesh->numDevices() << " devices), device " << problem.device.name
            << " (" << formatGiB(problem.device.hbmCapacity) << "), " << finalProblem.names.names.size()
            << " names, " << j["actions"] << " actions\n";
  if (!leverSearch.trials.empty()) {
    std::cout << "\nno plan fits without memory levers; tried (priced with the expert schedules):\n";
    for (const LeverTrial &t : leverSearch.trials) {
      std::cout << "  " << std::left << std::setw(30) << formatLevers(t.config) << std::right;
      if (!t.applied) {
        std::cout << " not applicable: " << t.note << "\n";
        continue;
      }
      std::cout << std::setw(13) << formatSeconds(t.cost.stepSeconds) << std::setw(13)
                << formatGiB(double(t.cost.peakBytes)) << std::setw(6) << (t.cost.feasible ? "yes" : "NO") << "  "
                << t.bestMethod << " (" << formatSeconds(t.seconds) << ")\n";
    }
  }
  if (leverProgram) {
    std::cout << "levers " << formatLevers(leverProgram->config) << ": " << leverProgram->result.summary << "\n";
    std::cout << formatLeverCost(cost);
  }
  std::cout << "\n";
  std::cout << std::left << std::setw(15) << "method" << std::right << std::setw(13) << "step" << std::setw(13)
            << "compute" << std::setw(13) << "comm" << std::setw(13) << "peak mem" << std::setw(6) << "fits"
            << std::setw(12) << "search" << std::setw(9) << "evals" << "  note\n";
  for (size_t i = 0; i < methods.size(); ++i) {
    const SearchOutcome &r = results[i];
    std::cout << std::left << std::setw(15) << methods[i]->name << std::right;
    if (!r.found) {
      std::cout << std::setw(13) << "-" << std::setw(13) << "-" << std::setw(13) << "-" << std::setw(13) << "-"
                << std::setw(6) << "-";
    } else {
      std::cout << std::setw(13) << formatSeconds(r.cost.stepSeconds) << std::setw(13) << formatSeconds(r.cost.computeSeconds)
                << std::setw(13) << formatSeconds(r.cost.commSeconds) << std::setw(13) << formatGiB(double(r.cost.peakBytes))
                << std::setw(6) << (r.cost.feasible ? "yes" : "NO");
    }
    std::cout << std::setw(12) << formatSeconds(r.seconds) << std::setw(9) << r.evaluations << "  " << r.note << "\n";
  }
  const SearchOutcome &chosen = results[0];
  if (chosen.found) {
    std::cout << "\n" << methods[0]->name << " plan:\n";
    if (chosen.actions.empty()) std::cout << "  (nothing sharded)\n";
    for (const std::string &a : chosen.actions) std::cout << "  " << a << "\n";
  }
  return 0;
}

CommandRegistration reg(
    "search", "Find a sharding plan automatically (MCTS) and compare it with baselines and expert tactics",
    [](CLI::App &app) -> CommandRun {
      auto o = std::make_shared<SearchOptions>();
      app.add_option("file", o->file, "StableHLO MLIR file ('-' for stdin)")->required();
      app.add_option("--mesh", o->mesh, "Mesh axes, e.g. data=8,model=4 (default: the input's sdy.mesh)");
      app.add_option("--device", o->device, "Hardware preset (autopart devices) or JSON file");
      // The registered methods (the expert ones come from the tactic registry).
      std::string methods;
      for (const SearchMethodInfo &m : searchMethodRegistry()) methods += m.name + " | ";
      app.add_option("--method", o->method, methods + "expert | baseline | all, comma-separated");
      app.add_option("--time-budget", o->timeBudget, "Seconds each method may take (default 30)");
      app.add_option("--iterations", o->iterations,
                     "MCTS iterations / random samples / exhaustive state cap (0: method default)");
      app.add_option("--seed", o->seed, "Random seed (same seed and iterations: same plan)");
      app.add_option("--exploration", o->exploration, "UCT exploration constant (default 0.7)");
      app.add_option("--threads", o->threads, "Search threads (default 2)");
      app.add_option("--rollout", o->rollout, "MCTS rollouts: random (default) or greedy")
          ->check(CLI::IsMember({"random", "greedy"}));
      app.add_option("--anneal-steps", o->annealSteps,
                     "MCTS: simulated-annealing proposals when refining the plan (default 50000, 0: descent only)")
          ->check(CLI::NonNegativeNumber);
      app.add_option("--levers", o->levers,
                     "Memory levers: auto (only when no plan fits; default), none, or a list such as "
                     "remat:full,microbatch:8 (remat: none|full|selective|dots)");
      app.add_flag("--no-portfolio", o->noPortfolio,
                   "mcts: do not refine the ILP baseline's plan as one more start (the tree search alone)");
      app.add_option("--refine-starts", o->refineStarts,
                     "MCTS: distinct name-level plans refined, the best one winning (default 4)")
          ->check(CLI::Range(1, 64));
      app.add_option("--function", o->function, "Entry function (default: main)");
      app.add_flag("--no-propagate", o->noPropagate,
                   "Start from the input's argument shardings as written instead of completing them with Shardy's "
                   "propagation first, as XLA does");
      app.add_flag("--json", o->json, "Machine-readable output");
      app.add_flag("--reprint", o->reprint, "With -o: print the program in MLIR's style instead of editing the input text");
      app.add_option("-o,--output", o->output, "Write the first method's plan as an annotated program");
      return [o] { return runSearch(*o); };
    });

}  // namespace
}  // namespace autopart
