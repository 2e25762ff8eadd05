// `autopart search FILE --mesh data=8,model=4 [--device h100-80gb]
//  [--method mcts|exhaustive|greedy|random|expert|all|NAME,...]
//  [--time-budget S] [--iterations N] [--seed N] [--json] [-o plan.mlir] [--html F]`:
// plans the program with each chosen method (search/SearchMethod.h) and
// prints, on one cost model, every plan's step time, peak memory, whether it
// fits, and how long the method took. `-o` writes the first method's plan
// as the annotated program (as `autopart plan` writes it), `--html` as a
// report page with the methods side by side.
// The search itself: api/Search.h.
#include <iostream>

#include "api/Search.h"
#include "support/AtomicFile.h"
#include "tools/Command.h"
#include "tools/HtmlOutput.h"
#include "tools/LoadModule.h"

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
  std::string html;
  bool reprint = false;
  bool noPropagate = false;
  std::string inputShardings;
};

int runSearch(const SearchOptions &o) {
  SearchRequest request;
  request.method = o.method;
  request.mesh = o.mesh;
  request.device = o.device;
  request.function = o.function;
  request.budget.seconds = o.timeBudget;
  request.budget.iterations = o.iterations;
  request.budget.seed = o.seed;
  request.budget.threads = o.threads;
  request.budget.exploration = o.exploration;
  request.budget.greedyRollouts = o.rollout == "greedy";
  request.budget.annealSteps = o.annealSteps;
  request.budget.refineStarts = o.refineStarts;
  request.budget.portfolio = !o.noPortfolio;
  request.budget.progress = !o.json;
  request.levers = o.levers;
  request.annotate = !o.output.empty() || !o.html.empty();
  request.reprint = o.reprint;
  request.propagate = !o.noPropagate;
  request.inputShardings = o.inputShardings;
  // An unknown method is reported before the file is read.
  Diagnostics diags;
  if (!searchMethodsValid(o.method, diags)) {
    printDiagnostics(diags, "autopart search");
    return 1;
  }
  std::optional<ProgramText> program = readProgram(o.file);
  if (!program) return 1;
  request.program = std::move(*program);
  SearchResult r = searchProgram(request, diags);
  printNotes(r.notes, "autopart search");
  if (!r.ok) {
    printDiagnostics(diags, "autopart search");
    return r.failure;
  }
  if (!o.output.empty() && !writeFileAtomic(o.output, r.text, diags)) {
    printDiagnostics(diags, "autopart search");
    return 1;
  }
  if (!o.html.empty()) {
    ReportRequest page;
    page.simulate.program = {r.text, o.output.empty() || o.output == "-" ? std::string("plan.mlir") : o.output};
    page.simulate.device = o.device;
    page.search = r.report;
    page.title = "search of " + (o.file == "-" ? std::string("stdin") : o.file);
    if (!writeHtmlOutput(o.html, page, "autopart search")) return 1;
  }
  if (o.json) std::cout << r.report.dump(2) << "\n";
  else std::cout << formatSearchReport(r.report);
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
      app.add_option("--input-shardings", o->inputShardings,
                     "What to do with the input's shardings when --mesh replaces its mesh and they use axes it lacks: keep (--mesh contains the input's axes), map (rename them to --mesh axes of equal size), drop (plan from scratch); default: stop with an error")
          ->check(CLI::IsMember({"keep", "map", "drop", "error"}));
      app.add_flag("--no-propagate", o->noPropagate,
                   "Start from the input's argument shardings as written instead of completing them with Shardy's "
                   "propagation first, as XLA does");
      app.add_flag("--json", o->json, "Machine-readable output");
      app.add_option("--html", o->html,
                     "Write the first method's plan as a report page with the methods side by side (docs/report.md)");
      app.add_flag("--reprint", o->reprint, "With -o: print the program in MLIR's style instead of editing the input text");
      app.add_option("-o,--output", o->output, "Write the first method's plan as an annotated program");
      return [o] { return runSearch(*o); };
    });

}  // namespace
}  // namespace autopart
