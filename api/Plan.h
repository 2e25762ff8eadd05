// A tactic schedule applied to a program (`autopart plan`, `autopart.plan`):
// the program annotated with `sdy.mesh` and `sdy.sharding` (and GSPMD
// strings on request), JAX PartitionSpecs of the entry function's arguments
// and results (export/PartitionSpecs.h), what each tactic sharded, and on
// request the simulation of the plan (as `autopart simulate` reports it).
//
//   PlanRequest r;  r.program = {text, "mlp.mlir"};
//   r.mesh = "data=8,model=4";  r.tactics = "dp,megatron";
//   PlanResult p = planProgram(r, diags);
//   p.text  -> the input text with sdy.mesh and sdy.sharding entries added
//   p.specs -> {"mesh": {"data": 8, "model": 4},
//               "in_specs": [{"name": "params['w1']", "spec": [null, "model"]}, ...],
//               "out_specs": [{"name": "", "spec": []}]}
//   p.tactics -> [{"tactic": "dp", "axis": "data", "sharded": [...], ...}, ...]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/Program.h"
#include "search/SearchMethod.h"

namespace autopart {

struct PlanRequest {
  ProgramText program;
  std::string mesh;     // e.g. data=8,model=4 (empty: the program's sdy.mesh)
  std::string tactics;  // dp,fsdp | dp:data,megatron:model | a YAML/JSON file (tactics/TacticSchedule.h)
  std::string function;               // entry function (empty: main)
  bool gspmd = false;                 // also mhlo.sharding strings
  bool reprint = false;               // MLIR's style instead of the input's text
  bool simulate = false;              // price the plan on `device` (PlanResult::simulation)
  std::string device = "h100-80gb";   // what the auto tactic plans for, and the simulation's device
  SearchBudget autoBudget;            // the auto tactic's search (seed, seconds, iterations, progress)
  bool propagate = true;              // complete the input's shardings as XLA would first
  // What happens to the input\'s shardings when `mesh` replaces its own mesh:
  // error (empty) | keep | map | drop (api/InputShardings.h).
  std::string inputShardings;
};

struct PlanResult {
  bool ok = false;
  // When not ok, the CLI's exit code: 2 when the schedule could not be
  // applied, 1 for bad input, 3 when the planned program failed autopart's
  // own check (export/CheckWritten.h: a bug, reported as internal error).
  int failure = 1;
  std::string text;             // the annotated program
  nlohmann::json specs;         // {"mesh", "in_specs", "out_specs"}
  nlohmann::json tactics;       // what each tactic did, in order
  nlohmann::json simulation;    // with `simulate` (null otherwise, or when the device did not load)
  std::vector<Note> notes;
};

// Errors go to `diags`: unlocated ones name the option they concern
// ("--tactics: ...", "--device: ..."). With `simulate` and a device that does
// not load, the plan is still there (ok) and the error is in `diags`.
PlanResult planProgram(const PlanRequest &request, Diagnostics &diags);

// What each tactic sharded, as `autopart plan` prints it on stderr.
std::string formatTacticReport(const nlohmann::json &tactics);

}  // namespace autopart
