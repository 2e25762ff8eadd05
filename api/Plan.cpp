#include "api/Plan.h"

#include "api/InputShardings.h"

#include <sstream>

#include "analysis/NamedDimensions.h"
#include "export/AnnotateModule.h"
#include "export/CheckWritten.h"
#include "export/ExportShardings.h"
#include "export/PartitionSpecs.h"
#include "export/PinPlan.h"
#include "export/PreserveText.h"
#include "xla/ImportPipeline.h"
#include "levers/Levers.h"
#include "search/AutoTactic.h"
#include "sim/Hardware.h"
#include "sim/ShardingMap.h"
#include "sim/SimulationReport.h"
#include "tactics/ApplySchedule.h"
#include "tactics/TacticSchedule.h"

namespace autopart {

PlanResult planProgram(const PlanRequest &request, Diagnostics &diags) {
  PlanResult r;
  std::unique_ptr<Module> m = parseVerifiedProgram(request.program, diags);
  if (!m) return r;
  // A GSPMD program (`jax.jit(...).lower()`) is read as XLA reads it into
  // Shardy; its shardings then constrain the plan like any input sharding.
  bool imported = false;
  if (!readXlaShardings(*m, diags, &imported)) return r;
  if (imported)
    r.notes.push_back({"read the GSPMD shardings as -xla-sdy-stablehlo-import-pipeline does", std::nullopt});
  std::string meshName;
  std::optional<Mesh> mesh = resolveMesh(*m, request.mesh, diags, &meshName);
  if (!mesh) return r;
  Diagnostics local;
  std::optional<TacticSchedule> schedule = parseTacticSchedule(request.tactics, *mesh, local);
  if (!schedule) {
    addWithOption(diags, local, "--tactics");
    return r;
  }
  // --input-shardings, else the schedule file's `input_shardings`.
  bool fromFile = request.inputShardings.empty() && !schedule->inputShardings.empty();
  std::optional<InputShardingPolicy> policy =
      parseInputShardingPolicy(fromFile ? schedule->inputShardings : request.inputShardings, local);
  if (!policy) {
    addWithOption(diags, local, fromFile ? "--tactics " + request.tactics : std::string("--input-shardings"));
    return r;
  }
  if (!reconcileInputShardings(m, meshName, *mesh, *policy, diags, r.notes)) return r;
  OpId func = findPlannableEntry(*m, request.function, diags);
  if (func == kNone) return r;
  // Levers rewrite the program first; the tactics shard what they wrote.
  LeverResult levers;
  if (schedule->levers.any()) {
    if (!applyLevers(*m, func, schedule->levers, levers, local)) {
      addWithOption(diags, local, "--tactics");
      return r;
    }
    r.notes.push_back({"levers " + formatLevers(levers.config) + ": " + levers.summary, std::nullopt});
  }

  ShardingVector state(m->values.size());
  auto current = [&](ValueId v) -> const TensorSharding * { return state[v] ? &*state[v] : nullptr; };
  // Shardings already in the input, completed as XLA would, are fixed
  // constraints: tactics build on them.
  if (!seedInputShardings(*m, func, request.propagate, state, diags)) return r;
  NamedDimensions names = analyzeNamedDimensions(*m, {}, &local);
  addNotes(r.notes, local);
  ScheduleContext ctx{*m, func, *mesh, meshName, names};
  AutoTacticOptions autoOptions{request.device, request.autoBudget};
  std::optional<nlohmann::json> applied = applySchedule(ctx, *schedule, state, makeAutoTactic(autoOptions), diags);
  if (!applied) {
    r.failure = 2;
    return r;
  }
  r.tactics = std::move(*applied);

  AnnotateOptions annotate;
  annotate.meshName = meshName;
  annotatePlan(*m, func, *mesh, annotate, current);
  // What is written must be what XLA runs: ops the plan keeps replicated
  // are pinned where XLA's propagation would shard them.
  PinStats pins;
  if (!pinAgainstPropagation(*m, func, meshName, current, diags, &pins)) return r;
  if (pins.pinned)
    r.notes.push_back({"pinned " + std::to_string(pins.pinned) +
                           " op(s) the plan keeps replicated against XLA's propagation",
                       std::nullopt});
  // The strings come from the writer of -xla-sdy-stablehlo-export-pipeline;
  // without --gspmd only those the input had are kept in step with the plan.
  ExportOptions exportOpts;
  exportOpts.onlyExisting = !request.gspmd;
  if (!exportGspmdShardings(*m, exportOpts, diags)) return r;
  std::string note;
  r.text = plannedModuleText(*m, request.reprint || levers.config.any(), &note);
  if (!note.empty()) r.notes.push_back({note, std::nullopt});
  if (!checkWrittenProgram(r.text, request.program.fileName + " (as planned)", diags)) {
    r.failure = 3;
    return r;
  }

  r.specs = functionPartitionSpecs(*m, func, *mesh, current);
  r.ok = true;

  if (request.simulate) {
    std::optional<Hardware> hw = loadHardware(request.device, local);
    if (!hw) {
      addWithOption(diags, local, "--device");
      return r;
    }
    // The report reads the plan from the annotated module, as `autopart
    // simulate` would read the written file.
    r.simulation = simulationReport(*m, ShardingMap::fromModule(*m), hardwareDeviceParams(*hw, *mesh));
  }
  return r;
}

std::string formatTacticReport(const nlohmann::json &tactics) {
  std::ostringstream os;
  for (const nlohmann::json &e : tactics) {
    os << "tactic " << e["tactic"].get<std::string>() << " (axis " << e["axis"].get<std::string>() << "): sharded "
       << e["sharded"].size() << " argument(s), " << e["dims_sharded"] << " tensor dimension(s) in all";
    if (e["dims_skipped"].get<int64_t>() > 0) os << " (" << e["dims_skipped"] << " left: axis already used there)";
    for (const nlohmann::json &s : e["sharded"]) os << "\n  " << s["argument"].get<std::string>() << " dim " << s["dim"];
    for (const nlohmann::json &n : e["skipped"]) os << "\n  skipped " << n.get<std::string>();
    os << "\n";
  }
  return os.str();
}

}  // namespace autopart
