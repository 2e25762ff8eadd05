#include "sim/SimulationReport.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "sim/CollectiveCost.h"
#include "sim/Memory.h"
#include "support/Format.h"
#include "support/JsonSchema.h"

namespace autopart {
namespace {

// Points of the memory timeline in the report: enough for a plot a page
// wide, few enough that a 50k-op step's report stays small.
constexpr size_t kTimelinePoints = 400;

}  // namespace

nlohmann::json simulationReport(const Module &m, const ShardingMap &shardings, const DeviceParams &device,
                                const ReportOptions &options) {
  Simulator sim(m, shardings, device, options.sim);
  StepSummary step = sim.evaluate();
  const size_t top = size_t(std::max(options.top, 0));

  int64_t devices = 1;
  const Mesh *mesh = nullptr;
  for (const auto &[name, msh] : sim.shardings().meshes())
    if (msh.numDevices() > devices) {
      devices = msh.numDevices();
      mesh = &msh;
    }
  double roofline =
      step.stepSeconds > 0 ? step.globalFlops / (double(devices) * device.peakFlopsDefault) / step.stepSeconds : 0;

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
  // Stable so equal costs keep program order (deterministic output).
  auto byCost = [](const Row &a, const Row &b) { return a.seconds > b.seconds; };
  std::stable_sort(ops.begin(), ops.end(), byCost);
  std::stable_sort(colls.begin(), colls.end(), byCost);
  if (ops.size() > top) ops.resize(top);
  if (colls.size() > top) colls.resize(top);

  // Collective buffers are live while their op runs.
  std::vector<int64_t> transient(m.ops.size(), 0);
  for (size_t i = 0; i < sim.sites().size(); ++i)
    for (const Collective &c : sim.siteCost(i).collectives) transient[sim.sites()[i].op] += c.bytes;
  MemoryReport mem = analyzeMemory(m, sim.entry(), sim.shardings(), [&](OpId op) { return transient[op]; });
  if (mem.liveAtPeak.size() > top) mem.liveAtPeak.resize(top);

  nlohmann::json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["device"] = device.name;
  j["devices"] = devices;
  if (mesh) j["mesh"] = mesh->str();
  j["step_seconds"] = step.stepSeconds;
  j["compute_seconds"] = step.computeSeconds;
  j["communication_seconds"] = step.commSeconds;
  j["overlap"] = options.sim.overlap;
  j["global_flops"] = step.globalFlops;
  j["local_flops"] = step.localFlops;
  j["roofline_fraction"] = roofline;
  j["unknown_trip_counts"] = step.unknownTripCounts;
  j["warnings"] = sim.warnings();
  j["top_ops"] = nlohmann::json::array();
  for (const Row &r : ops) {
    const OpCost &c = sim.siteCost(r.site);
    OpId op = sim.sites()[r.site].op;
    j["top_ops"].push_back({{"op", std::string(m.opName(op))}, {"where", m.where(op)},
                            {"seconds", r.seconds}, {"compute_seconds", c.computeSeconds},
                            {"communication_seconds", c.commSeconds}, {"flops", c.flops},
                            {"bytes", c.bytes}, {"executions", sim.sites()[r.site].multiplier}});
  }
  // Costliest kernels: what the time is spent on once ops are fused.
  const KernelPlan &plan = sim.kernels();
  std::vector<std::pair<double, size_t>> kernels;
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    double t = sim.kernelSeconds(k) * sim.sites()[plan.kernels[k].root].multiplier;
    if (t > 0) kernels.emplace_back(t, k);
  }
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
  if (kernels.size() > top) kernels.resize(top);
  j["kernel_count"] = plan.kernels.size();
  j["top_kernels"] = nlohmann::json::array();
  for (const auto &[seconds, k] : kernels) {
    const Kernel &kernel = plan.kernels[k];
    double flops = 0, peak = 0, efficiency = 1;
    nlohmann::json members = nlohmann::json::array();
    for (uint32_t site : kernel.members) {
      const OpCost &c = sim.siteCost(site);
      if (plan.owner[site] == k) {
        flops += c.flops;
        peak += c.peakSeconds;
      }
      efficiency = std::min(efficiency, c.efficiency);
      OpId op = sim.sites()[site].op;
      members.push_back({{"op", std::string(m.opName(op))}, {"where", m.where(op)}});
    }
    OpId root = sim.sites()[kernel.root].op;
    double bytes = sim.kernelBytes(k);
    double memorySeconds = bytes / (device.hbmBandwidth * (options.sim.achievableThroughput ? device.hbmEfficiency : 1));
    j["top_kernels"].push_back({{"kind", kernelKindName(kernel.kind)}, {"root", std::string(m.opName(root))},
                                {"where", m.where(root)}, {"seconds", seconds},
                                {"executions", sim.sites()[kernel.root].multiplier}, {"flops", flops},
                                {"bytes", bytes}, {"bound", peak >= memorySeconds ? "compute" : "memory"},
                                {"matmul_efficiency", efficiency}, {"ops", members}});
  }
  j["exposed_communication_seconds"] = step.exposedCommSeconds;
  j["combined_collectives"] = step.combinedCollectives;
  j["communication_by_kind"] = nlohmann::json::object();
  if (options.sim.schedule) {
    const ScheduleResult &sched = sim.schedule();
    for (size_t kind = 0; kind < kNumCollectiveKinds; ++kind) {
      double exposed = sched.exposedByKind[kind], hidden = sched.hiddenByKind[kind];
      if (exposed + hidden > 0)
        j["communication_by_kind"][collectiveName(CollectiveKind(kind))] = {{"exposed_seconds", exposed},
                                                                             {"hidden_seconds", hidden}};
    }
  }
  j["top_collectives"] = nlohmann::json::array();
  for (const Row &r : colls) {
    const Collective &c = sim.siteCost(r.site).collectives[size_t(r.collective)];
    OpId op = sim.sites()[r.site].op;
    j["top_collectives"].push_back({{"kind", collectiveName(c.kind)}, {"axes", axisListStr(c.axes)},
                                    {"bytes", c.bytes}, {"seconds", r.seconds},
                                    {"op", std::string(m.opName(op))}, {"where", m.where(op)}});
  }
  j["memory"] = {{"peak_bytes", mem.peakBytes}, {"argument_bytes", mem.argumentBytes},
                 {"donated_bytes", mem.donatedBytes}, {"capacity_bytes", int64_t(device.hbmCapacity)},
                 {"fits", double(mem.peakBytes) <= device.hbmCapacity}};
  if (mem.peakOp != kNone) j["memory"]["peak_at"] = m.where(mem.peakOp);
  j["memory"]["breakdown"] = nlohmann::json::object();
  for (size_t c = 0; c < kNumMemoryCategories; ++c)
    j["memory"]["breakdown"][memoryCategoryKey(MemoryCategory(c))] = mem.breakdown[c];
  j["memory"]["live_at_peak"] = nlohmann::json::array();
  for (const LiveBuffer &b : mem.liveAtPeak)
    j["memory"]["live_at_peak"].push_back({{"what", b.what}, {"bytes", b.bytes}});
  // Live bytes over the step, thinned for plotting (the peak survives).
  j["memory"]["timeline"] = nlohmann::json::array();
  if (!mem.timeline.empty()) {
    const std::vector<OpId> &entryOps = m.blocks[FuncView{m, sim.entry()}.entry()].ops;
    for (size_t i : bucketMaxima(mem.timeline, kTimelinePoints))
      j["memory"]["timeline"].push_back({{"op_index", i}, {"bytes", mem.timeline[i]}, {"where", m.where(entryOps[i])}});
  }
  return j;
}

std::string formatSimulationReport(const nlohmann::json &j) {
  std::ostringstream o;
  o << "device " << j.value("device", std::string()) << ", " << j.value("devices", int64_t(1)) << " devices";
  if (j.contains("mesh")) o << " " << j["mesh"].get<std::string>();
  o << "\n";
  o << "step time      " << formatSeconds(j["step_seconds"].get<double>()) << "  (compute "
    << formatSeconds(j["compute_seconds"].get<double>()) << ", communication "
    << formatSeconds(j["communication_seconds"].get<double>()) << ")\n";
  o << "FLOPs          " << j["global_flops"].get<double>() << " total, " << j["local_flops"].get<double>()
    << " per device\n";
  o << "roofline       " << std::fixed << std::setprecision(3) << j["roofline_fraction"].get<double>() << "\n";
  const nlohmann::json &mem = j["memory"];
  o << "peak memory    " << formatBytes(mem["peak_bytes"].get<double>()) << " of "
    << formatBytes(mem["capacity_bytes"].get<double>()) << (mem["fits"].get<bool>() ? "" : "  DOES NOT FIT") << "\n";
  // What the peak is made of, in category order, empty categories left out.
  if (mem.contains("breakdown")) {
    const char *sep = "  ";
    for (size_t c = 0; c < kNumMemoryCategories; ++c) {
      double bytes = mem["breakdown"].value(memoryCategoryKey(MemoryCategory(c)), 0.0);
      if (bytes <= 0) continue;
      o << sep << memoryCategoryName(MemoryCategory(c)) << " " << formatBytes(bytes);
      sep = ", ";
    }
    if (sep[0] == ',') o << "\n";
  }
  for (const auto &w : j["warnings"]) o << "warning: " << w.get<std::string>() << "\n";
  if (j.contains("exposed_communication_seconds") && j["communication_by_kind"].size()) {
    o << "communication  " << formatSeconds(j["exposed_communication_seconds"].get<double>()) << " exposed";
    for (const auto &[kind, v] : j["communication_by_kind"].items())
      o << "; " << kind << " " << formatSeconds(v["exposed_seconds"].get<double>()) << " exposed, "
        << formatSeconds(v["hidden_seconds"].get<double>()) << " hidden";
    if (j.value("combined_collectives", 0) > 0) o << "; " << j["combined_collectives"].get<int>() << " combined";
    o << "\n";
  }
  o << "\ncostliest kernels (" << j.value("kernel_count", size_t(0)) << " in all):\n";
  for (const auto &r : j["top_kernels"]) {
    o << "  " << std::setw(12) << formatSeconds(r["seconds"].get<double>()) << "  " << r["kind"].get<std::string>()
      << " " << r["root"].get<std::string>() << "  " << r["where"].get<std::string>() << "  ("
      << r["bound"].get<std::string>() << " bound, " << formatBytes(r["bytes"].get<double>());
    if (r["kind"] == "library") o << ", matmul at " << std::setprecision(2) << r["matmul_efficiency"].get<double>() << " of peak";
    o << ")\n";
    const auto &ops = r["ops"];
    if (ops.size() > 1) {
      o << "                fuses";
      size_t shown = 0;
      for (const auto &op : ops) {
        if (shown++ == 6) {
          o << " ... " << ops.size() - 6 << " more";
          break;
        }
        std::string name = op["op"].get<std::string>();
        if (name.rfind("stablehlo.", 0) == 0) name = name.substr(10);
        o << " " << name;
      }
      o << "\n";
    }
  }
  o << "\ncostliest collectives:\n";
  for (const auto &r : j["top_collectives"])
    o << "  " << std::setw(12) << formatSeconds(r["seconds"].get<double>()) << "  " << r["kind"].get<std::string>() << " "
      << r["axes"].get<std::string>() << " " << formatBytes(r["bytes"].get<double>()) << "  "
      << r["where"].get<std::string>() << "\n";
  o << "\nlive at peak memory";
  if (mem.contains("peak_at")) o << " (" << mem["peak_at"].get<std::string>() << ")";
  o << ":\n";
  for (const auto &b : mem["live_at_peak"])
    o << "  " << std::setw(12) << formatBytes(b["bytes"].get<double>()) << "  " << b["what"].get<std::string>() << "\n";
  return o.str();
}

}  // namespace autopart
