// `autopart simulate FILE [--mesh data=8,model=4] [--device NAME] [--json]`:
// the simulated step of an annotated program on one device: step time split
// into compute and communication, the costliest ops and collectives with
// their source locations, peak memory and what is live at the peak, and the
// roofline fraction (total FLOPs / (devices x peak FLOP/s)) / step time.
// The report itself is sim/SimulationReport (shared with other commands).
// Formulas and constants: docs/cost-model.md.
#include <iostream>

#include "propagation/CompleteShardings.h"
#include "sim/Hardware.h"
#include "sim/SimulationReport.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"
#include "tools/MeshSpec.h"

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
};

int runSimulate(const SimulateOptions &o) {
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  // Price the program XLA runs: Shardy's propagation completes the input's
  // shardings before the partitioner sees them.
  CompletionStats completion;
  if (!o.noPropagate) {
    Diagnostics diags;
    if (!completeShardingsAsXla(*m, diags, &completion)) {
      printDiagnostics(diags, "autopart simulate");
      return 1;
    }
  }
  ShardingMap shardings = ShardingMap::fromModule(*m);
  if (!o.mesh.empty()) {
    Diagnostics diags;
    std::optional<Mesh> parsed = parseMeshSpec(o.mesh, diags);
    if (!parsed) {
      printDiagnostics(diags, "autopart simulate");
      return 1;
    }
    Mesh mesh = *parsed;
    std::string name = shardings.meshes().size() == 1 ? shardings.meshes().begin()->first : "mesh";
    shardings.addMesh(name, mesh);
  }

  Diagnostics hwDiags;
  std::optional<Hardware> hw = loadHardware(o.device, hwDiags);
  if (!hw) {
    printDiagnostics(hwDiags, "autopart simulate", "--device");
    return 1;
  }
  const Mesh *largest = nullptr;
  for (const auto &[name, msh] : shardings.meshes())
    if (!largest || msh.numDevices() > largest->numDevices()) largest = &msh;
  DeviceParams device = hardwareDeviceParams(*hw, largest ? *largest : Mesh{});
  if (o.peakTflops > 0) {
    device.peakFlopsDefault = o.peakTflops * 1e12;
    device.peakFlopsByType.clear();
  }
  if (o.hbmGbps > 0) device.hbmBandwidth = o.hbmGbps * 1e9;
  if (o.linkGbps > 0) {
    device.defaultLink.bandwidth = o.linkGbps * 1e9;
    for (auto &[axis, link] : device.axisLinks) link.bandwidth = o.linkGbps * 1e9;
  }

  ReportOptions reportOptions;
  for (const std::string &part : o.ablate) {
    bool all = part == "all";
    if (all || part == "fusion") reportOptions.sim.fuse = false;
    if (all || part == "efficiency") reportOptions.sim.achievableThroughput = false;
    if (all || part == "overlap") reportOptions.sim.schedule = false;
    if (all || part == "combining") reportOptions.sim.combine = false;
  }
  reportOptions.sim.overlap = o.overlap;
  reportOptions.sim.synchronousCollectives = o.syncCollectives;
  reportOptions.sim.unknownTripCount = o.unknownTrips;
  reportOptions.top = o.top;
  nlohmann::json report = simulationReport(*m, shardings, device, reportOptions);
  report["input_shardings"] = {{"user", completion.userShardings},
                               {"propagated", completion.propagated},
                               {"updates", completion.propagation.updates}};
  if (o.json) std::cout << report.dump(2) << "\n";
  else std::cout << formatSimulationReport(report);
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
