// The simulated step of an annotated program on one device as a report,
// the one `autopart simulate --json` prints and `autopart.simulate` returns:
// step time split into compute and communication, the costliest kernels and
// collectives, peak memory and what is live there, the roofline fraction
// (sim/SimulationReport.h), and how many of the input's shardings Shardy's
// propagation completed first (as XLA would, unless `propagate` is off).
//
//   SimulateRequest r;  r.program = {annotatedText, "plan.mlir"};  r.device = "tpu-v4";
//   simulateProgram(r, diags)->report
//     -> {"step_seconds": 0.0012, "peak_bytes": ..., "input_shardings": {"user": 5, ...}, ...}
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/Program.h"
#include "sim/ShardingMap.h"

namespace autopart {

struct SimulateRequest {
  ProgramText program;
  std::string mesh;                  // e.g. data=8,model=4 (empty: the program's sdy.mesh)
  std::string device = "h100-80gb";  // preset (autopart devices) or a JSON file
  int top = 10;                      // ops, collectives and buffers listed
  // Parts of the cost model switched off: fusion, efficiency, overlap,
  // combining, all (docs/cost-model.md).
  std::vector<std::string> ablate;
  double overlap = 0;  // with ablate overlap: fraction of min(compute, comm) hidden
  bool syncCollectives = false;
  double unknownTrips = 1;  // trip count of loops without a static one
  double peakTflops = 0, hbmGbps = 0, linkGbps = 0;  // overrides (0: the device's)
  bool propagate = true;  // complete the input's shardings as XLA would first
  // What happens to the input\'s shardings when `mesh` replaces its own mesh:
  // error (empty) | keep | map | drop (api/InputShardings.h).
  std::string inputShardings;
};

struct SimulateResult {
  nlohmann::json report;
};

// Nullopt, with the reason in `diags` (an error without a location names
// its option: "--device: ..."), when the program, mesh or device is bad.
std::optional<SimulateResult> simulateProgram(const SimulateRequest &request, Diagnostics &diags);

// The same, keeping what the report was made from, for what draws it
// (api/Report.h): the completed program and the shardings it was priced with.
struct SimulatedProgram {
  std::unique_ptr<Module> module;
  ShardingMap shardings;
  nlohmann::json report;
};
std::optional<SimulatedProgram> simulateProgramKeeping(const SimulateRequest &request, Diagnostics &diags);

}  // namespace autopart
