// `autopart plan FILE --mesh data=8,model=4 --tactics dp,fsdp [-o OUT]
//  [--gspmd] [--specs SPECS.json] [--report [--device D]] [--report-json F]
//  [--html F]`: applies a tactic schedule to the entry function and writes
// the program annotated with `sdy.mesh` and `sdy.sharding` (plus
// `mhlo.sharding` strings with --gspmd), and a report of what each tactic
// sharded on stderr; --report-json writes that report and the plan's
// simulation as JSON (docs/json.md), --html as a page (docs/report.md).
// The planning itself: api/Plan.h.
#include <iostream>

#include "api/Plan.h"
#include "sim/SimulationReport.h"
#include "support/AtomicFile.h"
#include "tactics/TacticRegistry.h"
#include "tools/Command.h"
#include "support/JsonSchema.h"
#include "tools/HtmlOutput.h"
#include "tools/LoadModule.h"

namespace autopart {
namespace {

struct PlanOptions {
  std::string file;
  std::string mesh;
  std::string tactics;
  std::string output = "-";
  std::string specs;
  std::string function;
  bool gspmd = false;
  bool reprint = false;
  bool report = false;  // simulate the plan and print the report to stderr
  std::string device = "h100-80gb";  // what the auto tactic optimises for
  uint64_t seed = 0;                  // the auto tactic's search
  double timeBudget = 30;
  int64_t iterations = 0;
  bool noPropagate = false;
  std::string inputShardings;
  std::string reportJson;
  std::string html;
};

int runPlan(const PlanOptions &o) {
  std::optional<ProgramText> program = readProgram(o.file);
  if (!program) return 1;
  PlanRequest request;
  request.program = std::move(*program);
  request.mesh = o.mesh;
  request.tactics = o.tactics;
  request.function = o.function;
  request.gspmd = o.gspmd;
  request.reprint = o.reprint;
  request.simulate = o.report || !o.reportJson.empty();
  request.device = o.device;
  request.autoBudget.seed = o.seed;
  request.autoBudget.seconds = o.timeBudget;
  request.autoBudget.iterations = o.iterations;
  request.propagate = !o.noPropagate;
  request.inputShardings = o.inputShardings;
  Diagnostics diags;
  PlanResult r = planProgram(request, diags);
  printNotes(r.notes, "autopart plan");
  if (!r.ok) {
    printDiagnostics(diags, "autopart plan");
    return r.failure;
  }
  Diagnostics writeDiags;
  if (!writeFileAtomic(o.output, r.text, writeDiags) ||
      (!o.specs.empty() && !writeFileAtomic(o.specs, r.specs.dump(2) + "\n", writeDiags))) {
    printDiagnostics(writeDiags, "autopart plan");
    return 1;
  }
  std::cerr << formatTacticReport(r.tactics);
  if (!o.reportJson.empty()) {
    if (r.simulation.is_null()) {
      printDiagnostics(diags, "autopart plan");
      return 1;
    }
    nlohmann::json j = {{"schema_version", kJsonSchemaVersion},
                        {"tactics", r.tactics},
                        {"specs", r.specs},
                        {"simulation", r.simulation}};
    if (!writeFileAtomic(o.reportJson, j.dump(2) + "\n", writeDiags)) {
      printDiagnostics(writeDiags, "autopart plan", "--report-json");
      return 1;
    }
  }
  if (!o.html.empty()) {
    ReportRequest page;
    page.simulate.program = {r.text, o.output == "-" ? std::string("plan.mlir") : o.output};
    page.simulate.device = o.device;
    page.title = "plan of " + (o.file == "-" ? std::string("stdin") : o.file) + " (" + o.tactics + ")";
    if (!writeHtmlOutput(o.html, page, "autopart plan")) return 1;
  }
  if (o.report) {
    if (r.simulation.is_null()) {
      printDiagnostics(diags, "autopart plan");
      return 1;
    }
    std::cerr << "\n" << formatSimulationReport(r.simulation);
  }
  return 0;
}

CommandRegistration reg("plan", "Apply a tactic schedule and write the annotated program",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<PlanOptions>();
                          app.add_option("file", o->file, "StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_option("--mesh", o->mesh, "Mesh axes, e.g. data=8,model=4 (default: the input's sdy.mesh)");
                          app.add_option("--tactics", o->tactics,
                                         "dp,fsdp | dp:data,megatron:model | plan.yaml | plan.json (tactics: " +
                                             registeredTacticNames() + ", auto; manual globs in a file)")
                              ->required();
                          app.add_option("-o,--output", o->output, "Output file ('-': stdout)");
                          app.add_option("--specs", o->specs, "Also write JAX PartitionSpecs as JSON");
                          app.add_option("--function", o->function, "Entry function (default: main)");
                          app.add_flag("--gspmd", o->gspmd, "Also write mhlo.sharding strings");
                          app.add_flag("--reprint", o->reprint,
                                       "Print the program in MLIR's style instead of editing the input text");
                          app.add_flag("--report", o->report,
                                       "Simulate the plan on --device and print the simulate report to stderr");
                          app.add_option("--report-json", o->reportJson,
                                         "Write what each tactic did, the PartitionSpecs and the plan's simulation on "
                                         "--device as JSON (docs/json.md)");
                          app.add_option("--html", o->html,
                                         "Write the plan's report page (as autopart report makes it) to this file");
                          app.add_option("--device", o->device, "Hardware the auto tactic plans for (autopart devices)");
                          app.add_option("--seed", o->seed,
                                         "Random seed of the auto tactic's search (same seed and --iterations: same plan)");
                          app.add_option("--time-budget", o->timeBudget, "Seconds the auto tactic may search (default 30)");
                          app.add_option("--iterations", o->iterations, "MCTS iterations of the auto tactic (0: until the time budget)");
                          app.add_option("--input-shardings", o->inputShardings,
                                         "What to do with the input's shardings when --mesh replaces its mesh and they use axes it lacks: keep (--mesh contains the input's axes), map (rename them to --mesh axes of equal size), drop (plan from scratch); default: stop with an error")
                              ->check(CLI::IsMember({"keep", "map", "drop", "error"}));
                          app.add_flag("--no-propagate", o->noPropagate,
                                       "Start from the input's argument shardings as written instead of completing "
                                       "them with Shardy's propagation first, as XLA does");
                          return [o] { return runPlan(*o); };
                        });

}  // namespace
}  // namespace autopart
