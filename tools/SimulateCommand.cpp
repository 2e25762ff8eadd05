// `autopart simulate FILE [--mesh data=8,model=4] [--device NAME] [--json]`:
// the simulated step of an annotated program on one device: step time split
// into compute and communication, the costliest ops and collectives with
// their source locations, peak memory and what is live at the peak, and the
// roofline fraction (total FLOPs / (devices x peak FLOP/s)) / step time.
// The report itself is sim/SimulationReport (shared with other commands);
// api/Simulate.h makes it from the request.
// Formulas and constants: docs/cost-model.md.
#include <iostream>

#include "api/Simulate.h"
#include "sim/SimulationReport.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"

namespace autopart {
namespace {

struct SimulateOptions {
  std::string file;
  std::string mesh;
  std::string device = "h100-80gb";
  bool json = false;
  int top = 10;
  double overlap = 0;
  std::vector<std::string> ablate;
  bool syncCollectives = false;
  double unknownTrips = 1;
  double peakTflops = 0, hbmGbps = 0, linkGbps = 0;
  bool noPropagate = false;
  std::string inputShardings;
};

int runSimulate(const SimulateOptions &o) {
  std::optional<ProgramText> program = readProgram(o.file);
  if (!program) return 1;
  SimulateRequest request;
  request.program = std::move(*program);
  request.mesh = o.mesh;
  request.device = o.device;
  request.top = o.top;
  request.ablate = o.ablate;
  request.overlap = o.overlap;
  request.syncCollectives = o.syncCollectives;
  request.unknownTrips = o.unknownTrips;
  request.peakTflops = o.peakTflops;
  request.hbmGbps = o.hbmGbps;
  request.linkGbps = o.linkGbps;
  request.propagate = !o.noPropagate;
  request.inputShardings = o.inputShardings;
  Diagnostics diags;
  std::optional<SimulateResult> result = simulateProgram(request, diags);
  if (!result) {
    printDiagnostics(diags, "autopart simulate");
    return 1;
  }
  printDiagnostics(diags, "autopart simulate");  // notes and warnings of a run that worked
  if (o.json) std::cout << result->report.dump(2) << "\n";
  else std::cout << formatSimulationReport(result->report);
  return 0;
}

CommandRegistration reg("simulate", "Simulated step time, communication and peak memory of a sharded program",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<SimulateOptions>();
                          app.add_option("file", o->file, "Annotated StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_option("--mesh", o->mesh, "Mesh axes, e.g. data=8,model=4 (default: sdy.mesh of the input)");
                          app.add_option("--device", o->device, "Hardware preset (autopart devices) or JSON file");
                          app.add_flag("--json", o->json, "Machine-readable output");
                          app.add_option("--top", o->top, "How many ops, collectives and buffers to list");
                          app.add_option("--ablate", o->ablate,
                                         "Switch parts of the cost model off to see what each buys: fusion, efficiency, "
                                         "overlap, combining, or all (the unfused sequential roofline)")
                              ->delimiter(',')
                              ->check(CLI::IsMember({"fusion", "efficiency", "overlap", "combining", "all"}));
                          app.add_flag("--sync-collectives", o->syncCollectives,
                                       "Collectives block computation where they are needed (frameworks that issue "
                                       "them synchronously, e.g. Megatron-LM) instead of overlapping it");
                          app.add_option("--overlap", o->overlap,
                                         "With --ablate overlap: fraction of min(compute, communication) hidden (0..1)");
                          app.add_option("--input-shardings", o->inputShardings,
                                         "What to do with the input's shardings when --mesh replaces its mesh and they use axes it lacks: keep (--mesh contains the input's axes), map (rename them to --mesh axes of equal size), drop (plan from scratch); default: stop with an error")
                              ->check(CLI::IsMember({"keep", "map", "drop", "error"}));
                          app.add_flag("--no-propagate", o->noPropagate,
                                       "Price the shardings as written instead of completing them with Shardy's "
                                       "propagation first, as XLA does");
                          app.add_option("--unknown-trip-count", o->unknownTrips, "Trip count assumed for loops without a static one");
                          app.add_option("--peak-tflops", o->peakTflops, "Override peak TFLOP/s");
                          app.add_option("--hbm-gbps", o->hbmGbps, "Override HBM bandwidth (GB/s)");
                          app.add_option("--link-gbps", o->linkGbps, "Override link bandwidth (GB/s)");
                          return [o] { return runSimulate(*o); };
                        });

}  // namespace
}  // namespace autopart
