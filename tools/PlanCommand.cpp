// `autopart plan FILE --mesh data=8,model=4 --tactics dp,fsdp [-o OUT]
//  [--gspmd] [--specs SPECS.json] [--report [--device D]]`: applies a tactic schedule to the entry
// function and writes the program annotated with `sdy.mesh` and
// `sdy.sharding` (plus `mhlo.sharding` strings with --gspmd), and a report of
// what each tactic sharded on stderr.
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "analysis/ArgumentRoles.h"
#include "analysis/NamedDimensions.h"
#include "export/AnnotateModule.h"
#include "export/ExportShardings.h"
#include "export/PartitionSpecs.h"
#include "export/PinPlan.h"
#include "export/PreserveText.h"
#include "levers/Levers.h"
#include "search/AutoTactic.h"
#include "sim/Hardware.h"
#include "sim/ShardingMap.h"
#include "sim/SimulationReport.h"
#include "support/AtomicFile.h"
#include "tactics/ApplySchedule.h"
#include "tactics/NamePropagation.h"
#include "tactics/TacticRegistry.h"
#include "tactics/TacticSchedule.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"
#include "tools/MeshSpec.h"

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
};

int runPlan(const PlanOptions &o) {
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  Diagnostics diags;
  std::string meshName;
  std::optional<Mesh> mesh = resolveMesh(*m, o.mesh, "plan", &meshName);
  if (!mesh) return 1;
  std::optional<TacticSchedule> schedule = parseTacticSchedule(o.tactics, *mesh, diags);
  if (!schedule) {
    printDiagnostics(diags, "autopart plan", "--tactics");
    return 1;
  }
  OpId func = findPlannableEntry(*m, o.function, "plan");
  if (func == kNone) return 1;
  FuncView f{*m, func};
  // Levers rewrite the program first; the tactics shard what they wrote.
  LeverResult levers;
  if (schedule->levers.any()) {
    if (!applyLevers(*m, func, schedule->levers, levers, diags)) {
      printDiagnostics(diags, "autopart plan", "--tactics");
      return 1;
    }
    std::cerr << "levers " << formatLevers(levers.config) << ": " << levers.summary << "\n";
  }

  ShardingVector state(m->values.size());
  std::vector<ArgumentInfo> infos = classifyArguments(*m, func);
  auto current = [&](ValueId v) -> const TensorSharding * {
    return state[v] ? &*state[v] : nullptr;
  };
  // Shardings already in the input, completed as XLA would, are fixed
  // constraints: tactics build on them.
  if (!seedInputShardings(*m, func, !o.noPropagate, state, diags)) {
    printDiagnostics(diags, "autopart plan");
    return 1;
  }
  NamedDimensions names = analyzeNamedDimensions(*m, {}, &diags);
  printDiagnostics(diags, "autopart plan");
  ScheduleContext ctx{*m, func, *mesh, meshName, names};
  AutoTacticOptions autoOptions{o.device, {}};
  autoOptions.budget.seed = o.seed;
  autoOptions.budget.seconds = o.timeBudget;
  autoOptions.budget.iterations = o.iterations;
  std::optional<nlohmann::json> applied = applySchedule(ctx, *schedule, state, makeAutoTactic(autoOptions), diags);
  if (!applied) {
    printDiagnostics(diags, "autopart plan");
    return 2;
  }
  nlohmann::json report = std::move(*applied);

  AnnotateOptions annotate;
  annotate.meshName = meshName;
  annotatePlan(*m, func, *mesh, annotate, current);
  // What is written must be what XLA runs: ops the plan keeps replicated
  // are pinned where XLA's propagation would shard them.
  PinStats pins;
  if (!pinAgainstPropagation(*m, func, meshName, current, diags, &pins)) {
    printDiagnostics(diags, "autopart plan");
    return 1;
  }
  if (pins.pinned) std::cerr << "pinned " << pins.pinned << " op(s) the plan keeps replicated against XLA's propagation\n";
  if (o.gspmd) {
    if (!exportGspmdShardings(*m, ExportOptions{}, diags)) {
      printDiagnostics(diags, "autopart plan");
      return 1;
    }
  }
  if (!writePlannedModule(*m, o.output, o.reprint || levers.config.any(), diags)) {
    printDiagnostics(diags, "autopart plan");
    return 1;
  }
  if (!o.specs.empty()) {
    nlohmann::json in = nlohmann::json::array(), out = nlohmann::json::array();
    for (size_t i = 0; i < f.args().size(); ++i) {
      const TensorSharding *s = current(f.args()[i]);
      size_t rank = size_t(std::max<int64_t>(0, m->types.rank(m->type(f.args()[i]))));
      std::string why;
      nlohmann::json spec = s ? partitionSpec(*s, &why) : nlohmann::json(std::vector<std::nullptr_t>(rank, nullptr));
      in.push_back({{"name", infos[i].name}, {"spec", spec}});
    }
    for (size_t i = 0; i < f.numResults(); ++i) {
      std::string why;
      const TensorSharding *s = f.returnOp() == kNone ? nullptr : current(m->operand(f.returnOp(), uint32_t(i)));
      nlohmann::json spec = s ? partitionSpec(*s, &why) : nlohmann::json(nullptr);
      out.push_back({{"name", resultName(*m, func, i)}, {"spec", spec}});
    }
    nlohmann::json meshJson = nlohmann::json::object();
    for (const MeshAxis &a : mesh->axes) meshJson[a.name] = a.size;
    nlohmann::json specs = {{"mesh", meshJson}, {"in_specs", in}, {"out_specs", out}};
    if (!writeFileAtomic(o.specs, specs.dump(2) + "\n", diags)) {
      printDiagnostics(diags, "autopart plan");
      return 1;
    }
  }
  for (const nlohmann::json &e : report) {
    std::cerr << "tactic " << e["tactic"].get<std::string>() << " (axis " << e["axis"].get<std::string>()
              << "): sharded " << e["sharded"].size() << " argument(s), " << e["dims_sharded"]
              << " tensor dimension(s) in all";
    if (e["dims_skipped"].get<int64_t>() > 0)
      std::cerr << " (" << e["dims_skipped"] << " left: axis already used there)";
    for (const nlohmann::json &s : e["sharded"])
      std::cerr << "\n  " << s["argument"].get<std::string>() << " dim " << s["dim"];
    for (const nlohmann::json &n : e["skipped"]) std::cerr << "\n  skipped " << n.get<std::string>();
    std::cerr << "\n";
  }
  if (o.report) {
    std::optional<Hardware> hw = loadHardware(o.device, diags);
    if (!hw) {
      printDiagnostics(diags, "autopart plan", "--device");
      return 1;
    }
    // The report reads the plan from the annotated module, as `autopart
    // simulate` would read the written file.
    nlohmann::json sim = simulationReport(*m, ShardingMap::fromModule(*m), hardwareDeviceParams(*hw, *mesh));
    std::cerr << "\n" << formatSimulationReport(sim);
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
                          app.add_option("--device", o->device, "Hardware the auto tactic plans for (autopart devices)");
                          app.add_option("--seed", o->seed,
                                         "Random seed of the auto tactic's search (same seed and --iterations: same plan)");
                          app.add_option("--time-budget", o->timeBudget, "Seconds the auto tactic may search (default 30)");
                          app.add_option("--iterations", o->iterations, "MCTS iterations of the auto tactic (0: until the time budget)");
                          app.add_flag("--no-propagate", o->noPropagate,
                                       "Start from the input's argument shardings as written instead of completing "
                                       "them with Shardy's propagation first, as XLA does");
                          return [o] { return runPlan(*o); };
                        });

}  // namespace
}  // namespace autopart
