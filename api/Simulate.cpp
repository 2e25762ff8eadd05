#include "api/Simulate.h"

#include "api/InputShardings.h"
#include "sim/Hardware.h"
#include "sim/SimulationReport.h"

namespace autopart {

namespace {

// Writes `completed` (by `m`'s values) onto `m` as the pipeline wrote it on
// `piped`: argument and op shardings, and each function's result shardings
// taken from the function of the same name in `piped`. `sdy` ops keep
// their own.
void writeCompletion(Module &m, const ShardingVector &completed, const Module &piped) {
  for (OpId func : m.functions()) {
    MutableFuncView f{m, func};
    for (size_t i = 0; i < f.args().size(); ++i)
      if (ValueId a = f.args()[i]; a < completed.size() && completed[a])
        f.setArgAttr(i, "sdy.sharding", m.attrs.sharding(*completed[a]));
    if (OpId other = piped.lookupSymbol(f.name()); other != kNone && piped.isa(other, "func.func")) {
      FuncView g{piped, other};
      for (size_t i = 0; i < f.numResults() && i < g.numResults(); ++i) {
        AttrId a = g.resultAttr(i, "sdy.sharding");
        if (a != kNoAttr && piped.attrs.kind(a) == AttrKind::Sharding)
          f.setResultAttr(i, "sdy.sharding", m.attrs.sharding(*piped.attrs.get(a).sharding));
      }
    }
    std::vector<OpId> ops;
    m.walk(func, [&](OpId op) { ops.push_back(op); });
    for (OpId op : ops) {
      uint32_t n = m.numResults(op);
      if (n == 0 || (m.opName(op).starts_with("sdy.") && !m.isa(op, "sdy.constant"))) continue;
      const TensorSharding *any = nullptr;
      bool allTensors = true;
      for (uint32_t i = 0; i < n; ++i) {
        ValueId v = m.result(op, i);
        allTensors &= m.types.isTensor(m.type(v));
        if (v < completed.size() && completed[v]) any = &*completed[v];
      }
      if (!any || !allTensors) continue;
      std::vector<TensorSharding> list;
      for (uint32_t i = 0; i < n; ++i) {
        ValueId v = m.result(op, i);
        list.push_back(completed[v] ? *completed[v]
                                    : TensorSharding::closed(any->meshName, size_t(m.types.rank(m.type(v)))));
      }
      m.setAttr(op, "sdy.sharding", m.attrs.shardingPerValue(std::move(list)));
    }
  }
}

}  // namespace

std::optional<SimulateResult> simulateProgram(const SimulateRequest &request, Diagnostics &diags) {
  std::optional<SimulatedProgram> p = simulateProgramKeeping(request, diags);
  if (!p) return std::nullopt;
  return SimulateResult{std::move(p->report)};
}

std::optional<SimulatedProgram> simulateProgramKeeping(const SimulateRequest &request, Diagnostics &diags) {
  std::unique_ptr<Module> m = parseProgram(request.program, diags);
  if (!m) return std::nullopt;
  if (!request.mesh.empty() && findModuleMesh(*m)) {
    // The input's own shardings must make sense on the mesh priced.
    std::string meshName;
    std::vector<Note> notes;
    if (!resolveRequestMesh(m, request.mesh, request.inputShardings, diags, notes, &meshName)) return std::nullopt;
    for (Note &n : notes)
      if (n.diagnostic) {
        diags.emit(n.diagnostic->severity, n.diagnostic->file, n.diagnostic->line, n.diagnostic->col,
                   n.diagnostic->message);
      } else {
        diags.emit(Severity::Note, "", 0, 0, n.line);
      }
  }
  // Price the program XLA runs: Shardy's propagation pipeline completes the
  // input's shardings before the partitioner sees them. What is priced is
  // the input annotated with the pipeline's shardings (what `autopart-opt
  // -sdy-propagation-pipeline` writes, mapped back onto the input's ops),
  // so a written plan prices the same here as in `plan`, which plans on the
  // input's ops too.
  CompletionStats completion;
  if (request.propagate) {
    ShardingVector completed;
    std::unique_ptr<Module> piped;
    if (!completedShardings(*m, false, completed, diags, &completion, &piped)) return std::nullopt;
    if (piped) writeCompletion(*m, completed, *piped);
  }
  ShardingMap shardings = ShardingMap::fromModule(*m);
  if (!request.mesh.empty()) {
    std::optional<Mesh> mesh = parseMeshSpec(request.mesh, diags);
    if (!mesh) return std::nullopt;
    std::string name = shardings.meshes().size() == 1 ? shardings.meshes().begin()->first : "mesh";
    shardings.addMesh(name, *mesh);
  }

  Diagnostics hwDiags;
  std::optional<Hardware> hw = loadHardware(request.device, hwDiags);
  if (!hw) {
    addWithOption(diags, hwDiags, "--device");
    return std::nullopt;
  }
  const Mesh *largest = nullptr;
  for (const auto &[name, msh] : shardings.meshes())
    if (!largest || msh.numDevices() > largest->numDevices()) largest = &msh;
  DeviceParams device = hardwareDeviceParams(*hw, largest ? *largest : Mesh{});
  if (request.peakTflops > 0) {
    device.peakFlopsDefault = request.peakTflops * 1e12;
    device.peakFlopsByType.clear();
  }
  if (request.hbmGbps > 0) device.hbmBandwidth = request.hbmGbps * 1e9;
  if (request.linkGbps > 0) {
    device.defaultLink.bandwidth = request.linkGbps * 1e9;
    for (auto &[axis, link] : device.axisLinks) link.bandwidth = request.linkGbps * 1e9;
  }

  ReportOptions reportOptions;
  for (const std::string &part : request.ablate) {
    bool all = part == "all";
    if (!all && part != "fusion" && part != "efficiency" && part != "overlap" && part != "combining") {
      diags.error("--ablate: '" + part + "' is not one of fusion, efficiency, overlap, combining, all");
      return std::nullopt;
    }
    if (all || part == "fusion") reportOptions.sim.fuse = false;
    if (all || part == "efficiency") reportOptions.sim.achievableThroughput = false;
    if (all || part == "overlap") reportOptions.sim.schedule = false;
    if (all || part == "combining") reportOptions.sim.combine = false;
  }
  reportOptions.sim.overlap = request.overlap;
  reportOptions.sim.synchronousCollectives = request.syncCollectives;
  reportOptions.sim.unknownTripCount = request.unknownTrips;
  reportOptions.top = request.top;
  SimulatedProgram result;
  result.report = simulationReport(*m, shardings, device, reportOptions);
  result.report["input_shardings"] = {{"user", completion.userShardings},
                                      {"propagated", completion.propagated},
                                      {"updates", completion.propagation.updates},
                                      {"per_use_values", completion.perUseValues}};
  result.module = std::move(m);
  result.shardings = std::move(shardings);
  return result;
}

}  // namespace autopart
