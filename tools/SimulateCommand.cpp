// `autopart simulate FILE [--mesh data=8,model=4] [--device NAME] [--json]`:
// the simulated step of an annotated program on one device: step time split
// into compute and communication, the costliest ops and collectives with
// their source locations, peak memory and what is live at the peak, and the
// roofline fraction (total FLOPs / (devices x peak FLOP/s)) / step time.
// Formulas and constants: docs/cost-model.md.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/Hardware.h"
#include "sim/CollectiveCost.h"
#include "sim/Memory.h"
#include "sim/Simulator.h"
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
  double unknownTrips = 1;
  double peakTflops = 0, hbmGbps = 0, linkGbps = 0;
};

std::string bytes(double b) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  std::ostringstream o;
  o << std::fixed << std::setprecision(u ? 2 : 0) << b << " " << units[u];
  return o.str();
}

int runSimulate(const SimulateOptions &o) {
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  ShardingMap shardings = ShardingMap::fromModule(*m);
  if (!o.mesh.empty()) {
    std::string meshError;
    std::optional<Mesh> parsed = parseMeshSpec(o.mesh, &meshError);
    if (!parsed) {
      std::cerr << "autopart simulate: error: --mesh: " << meshError << "\n";
      return 1;
    }
    Mesh mesh = *parsed;
    std::string name = shardings.meshes().size() == 1 ? shardings.meshes().begin()->first : "mesh";
    shardings.addMesh(name, mesh);
  }

  std::string hwError;
  std::optional<Hardware> hw = loadHardware(o.device, &hwError);
  if (!hw) {
    std::cerr << "autopart simulate: error: --device: " << hwError << "\n";
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

  SimOptions simOptions;
  simOptions.overlap = o.overlap;
  simOptions.unknownTripCount = o.unknownTrips;
  Simulator sim(*m, shardings, device, simOptions);
  StepSummary step = sim.evaluate();

  int64_t devices = 1;
  const Mesh *mesh = nullptr;
  for (const auto &[name, msh] : sim.shardings().meshes())
    if (msh.numDevices() > devices) {
      devices = msh.numDevices();
      mesh = &msh;
    }
  double peak = device.peakFlopsDefault;
  double roofline = step.stepSeconds > 0 ? step.globalFlops / (double(devices) * peak) / step.stepSeconds : 0;

  // Costliest ops and collectives, weighted by how often they run.
  struct Row {
    double seconds;
    size_t site;
    int collective;  // -1: the op itself
  };
  std::vector<Row> ops, colls;
  for (size_t i = 0; i < sim.sites().size(); ++i) {
    const OpCost &c = sim.siteCost(i);
    double mult = sim.sites()[i].multiplier;
    if (c.computeSeconds + c.commSeconds > 0) ops.push_back({(c.computeSeconds + c.commSeconds) * mult, i, -1});
    for (size_t k = 0; k < c.collectives.size(); ++k)
      if (c.collectiveSeconds[k] > 0) colls.push_back({c.collectiveSeconds[k] * mult, i, int(k)});
  }
  auto byCost = [](const Row &a, const Row &b) { return a.seconds > b.seconds; };
  std::sort(ops.begin(), ops.end(), byCost);
  std::sort(colls.begin(), colls.end(), byCost);
  if (ops.size() > size_t(o.top)) ops.resize(size_t(o.top));
  if (colls.size() > size_t(o.top)) colls.resize(size_t(o.top));

  // Collective buffers are live while their op runs.
  std::vector<int64_t> transient(m->ops.size(), 0);
  for (size_t i = 0; i < sim.sites().size(); ++i)
    for (const Collective &c : sim.siteCost(i).collectives) transient[sim.sites()[i].op] += c.bytes;
  MemoryReport mem = analyzeMemory(*m, sim.entry(), sim.shardings(), [&](OpId op) { return transient[op]; });
  if (mem.liveAtPeak.size() > size_t(o.top)) mem.liveAtPeak.resize(size_t(o.top));

  nlohmann::json j;
  j["device"] = device.name;
  j["devices"] = devices;
  if (mesh) j["mesh"] = mesh->str();
  j["step_seconds"] = step.stepSeconds;
  j["compute_seconds"] = step.computeSeconds;
  j["communication_seconds"] = step.commSeconds;
  j["overlap"] = o.overlap;
  j["global_flops"] = step.globalFlops;
  j["local_flops"] = step.localFlops;
  j["roofline_fraction"] = roofline;
  j["unknown_trip_counts"] = step.unknownTripCounts;
  j["warnings"] = sim.warnings();
  j["top_ops"] = nlohmann::json::array();
  for (const Row &r : ops) {
    const OpCost &c = sim.siteCost(r.site);
    OpId op = sim.sites()[r.site].op;
    j["top_ops"].push_back({{"op", std::string(m->opName(op))}, {"where", m->where(op)},
                            {"seconds", r.seconds}, {"compute_seconds", c.computeSeconds},
                            {"communication_seconds", c.commSeconds}, {"flops", c.flops},
                            {"bytes", c.bytes}, {"executions", sim.sites()[r.site].multiplier}});
  }
  j["top_collectives"] = nlohmann::json::array();
  for (const Row &r : colls) {
    const Collective &c = sim.siteCost(r.site).collectives[size_t(r.collective)];
    OpId op = sim.sites()[r.site].op;
    j["top_collectives"].push_back({{"kind", collectiveName(c.kind)}, {"axes", axisListStr(c.axes)},
                                    {"bytes", c.bytes}, {"seconds", r.seconds},
                                    {"op", std::string(m->opName(op))}, {"where", m->where(op)}});
  }
  j["memory"] = {{"peak_bytes", mem.peakBytes}, {"argument_bytes", mem.argumentBytes},
                 {"donated_bytes", mem.donatedBytes}, {"capacity_bytes", device.hbmCapacity},
                 {"fits", double(mem.peakBytes) <= device.hbmCapacity}};
  if (mem.peakOp != kNone) j["memory"]["peak_at"] = m->where(mem.peakOp);
  j["memory"]["live_at_peak"] = nlohmann::json::array();
  for (const LiveBuffer &b : mem.liveAtPeak) j["memory"]["live_at_peak"].push_back({{"what", b.what}, {"bytes", b.bytes}});

  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "device " << device.name << ", " << devices << " devices";
  if (mesh) std::cout << " " << mesh->str();
  std::cout << "\n";
  std::cout << "step time      " << formatSeconds(step.stepSeconds) << "  (compute " << formatSeconds(step.computeSeconds)
            << ", communication " << formatSeconds(step.commSeconds) << ")\n";
  std::cout << "FLOPs          " << step.globalFlops << " total, " << step.localFlops << " per device\n";
  std::cout << "roofline       " << std::fixed << std::setprecision(3) << roofline << "\n";
  std::cout << "peak memory    " << bytes(double(mem.peakBytes)) << " of " << bytes(device.hbmCapacity)
            << (double(mem.peakBytes) <= device.hbmCapacity ? "" : "  DOES NOT FIT") << "\n";
  for (const std::string &w : sim.warnings()) std::cout << "warning: " << w << "\n";
  std::cout << "\ncostliest ops:\n";
  for (const Row &r : ops) {
    OpId op = sim.sites()[r.site].op;
    std::cout << "  " << std::setw(12) << formatSeconds(r.seconds) << "  " << m->opName(op) << "  " << m->where(op) << "\n";
  }
  std::cout << "\ncostliest collectives:\n";
  for (const Row &r : colls) {
    const Collective &c = sim.siteCost(r.site).collectives[size_t(r.collective)];
    OpId op = sim.sites()[r.site].op;
    std::cout << "  " << std::setw(12) << formatSeconds(r.seconds) << "  " << collectiveName(c.kind) << " "
              << axisListStr(c.axes) << " " << bytes(double(c.bytes)) << "  " << m->where(op) << "\n";
  }
  std::cout << "\nlive at peak memory";
  if (mem.peakOp != kNone) std::cout << " (" << m->where(mem.peakOp) << ")";
  std::cout << ":\n";
  for (const LiveBuffer &b : mem.liveAtPeak) std::cout << "  " << std::setw(12) << bytes(double(b.bytes)) << "  " << b.what << "\n";
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
                          app.add_option("--overlap", o->overlap, "Fraction of min(compute, communication) hidden (0..1)");
                          app.add_option("--unknown-trip-count", o->unknownTrips, "Trip count assumed for loops without a static one");
                          app.add_option("--peak-tflops", o->peakTflops, "Override peak TFLOP/s");
                          app.add_option("--hbm-gbps", o->hbmGbps, "Override HBM bandwidth (GB/s)");
                          app.add_option("--link-gbps", o->linkGbps, "Override link bandwidth (GB/s)");
                          return [o] { return runSimulate(*o); };
                        });

}  // namespace
}  // namespace autopart
