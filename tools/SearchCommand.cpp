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
#include "export/PreserveText.h"
#include "search/LeverSearch.h"
#include "search/SearchMethod.h"
#include "sim/Hardware.h"
#include "sim/ValueCategories.h"
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
  seedFromInput(*m, func, base);
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
  // The best plan without levers, to say what the levers cost.
  std::optional<SearchOutcome> withoutLevers;
  std::string withoutLeversMethod;
  auto noteWithout = [&](const SearchOutcome &r, const std::string &name) {
    if (!r.found || (withoutLevers && !r.cost.betterThan(withoutLevers->cost))) return;
    withoutLevers = r;
    withoutLeversMethod = name;
  };
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
    bool hopeless = false;
    if (o.levers == "auto") {
      hopeless = true;
      SearchBudget quick = budget;
      quick.progress = false;
      for (const SearchMethodInfo &e : searchMethodRegistry()) {
        if (!hasTag(e, "expert")) continue;
        SearchOutcome r = runSearchMethod(e, problem, quick);
        if (r.found && double(r.cost.peakBytes) <= 2 * problem.device.hbmCapacity) hopeless = false;
        noteWithout(r, e.name);
      }
    }
    if (!hopeless) {
      runAll(problem, budget);
      for (size_t i = 0; i < methods.size(); ++i) noteWithout(results[i], methods[i]->name);
    }
    if (o.levers == "auto" && (hopeless || (results[0].found && !results[0].cost.feasible))) {
      if (budget.progress) std::cerr << "no plan fits: trying memory levers\n";
      leverSearch = searchLevers(reload, o.function, problem, budget.seconds);
      if (leverSearch.chosen) {
        leverProgram = std::move(leverSearch.chosen);
        leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
        runAll(*leverSearchProblem, budget);
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
  j["actions"] = buildActionSpace(finalProblem).size();
  j["levers"] = leverProgram ? formatLevers(leverProgram->config) : "none";
  if (leverProgram) j["levers_summary"] = leverProgram->result.summary;
  // What the levers cost and bought, against the best plan without them,
  // and what the peak is made of before and after.
  std::string leverCost, memoryBefore, memoryAfter;
  if (leverProgram && withoutLevers && results[0].found) {
    const PlanCost &b = withoutLevers->cost, &a = results[0].cost;
    double extra = b.computeSeconds > 0 ? a.computeSeconds / b.computeSeconds - 1 : 0;
    j["levers_cost"] = {{"baseline_method", withoutLeversMethod},
                        {"compute_seconds_before", b.computeSeconds},
                        {"compute_seconds_after", a.computeSeconds},
                        {"peak_bytes_before", b.peakBytes},
                        {"peak_bytes_after", a.peakBytes}};
    std::ostringstream c;
    c << (extra >= 0 ? "+" : "") << std::fixed << std::setprecision(0) << extra * 100 << "% compute ("
      << formatSeconds(b.computeSeconds) << " -> " << formatSeconds(a.computeSeconds) << "), "
      << formatGiB(double(b.peakBytes - a.peakBytes)) << " less per device (" << formatGiB(double(b.peakBytes))
      << " -> " << formatGiB(double(a.peakBytes)) << "), against the best plan without levers ("
      << withoutLeversMethod << ")";
    leverCost = c.str();
    auto breakdown = [](const MemoryReport &r) {
      std::string out;
      for (size_t k = 0; k < kNumMemoryCategories; ++k) {
        if (r.breakdown[k] <= 0) continue;
        out += (out.empty() ? "" : ", ") + std::string(memoryCategoryName(MemoryCategory(k))) + " " +
               formatGiB(double(r.breakdown[k]));
      }
      return out;
    };
    MemoryReport before = describePlanMemory(problem, withoutLevers->shardings);
    MemoryReport after = describePlanMemory(finalProblem, results[0].shardings);
    memoryBefore = breakdown(before);
    memoryAfter = breakdown(after);
    for (const auto &[key, r] : {std::pair{"memory_before", &before}, std::pair{"memory_after", &after}}) {
      nlohmann::json bj = nlohmann::json::object();
      for (size_t k = 0; k < kNumMemoryCategories; ++k) bj[memoryCategoryKey(MemoryCategory(k))] = r->breakdown[k];
      j["levers_cost"][key] = bj;
    }
  }
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
    if (!leverCost.empty()) {
      std::cout << "  cost: " << leverCost << "\n";
      std::cout << "  peak before: " << memoryBefore << "\n  peak after:  " << memoryAfter << "\n";
    }
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
      app.add_flag("--json", o->json, "Machine-readable output");
      app.add_flag("--reprint", o->reprint, "With -o: print the program in MLIR's style instead of editing the input text");
      app.add_option("-o,--output", o->output, "Write the first method's plan as an annotated program");
      return [o] { return runSearch(*o); };
    });

}  // namespace
}  // namespace autopart
