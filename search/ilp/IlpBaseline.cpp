#include "search/ilp/IlpBaseline.h"

#include "search/ilp/IlpBuilder.h"
#include "support/Format.h"

namespace autopart {

using ilp::Clock;
using ilp::IlpBuilder;
using ilp::since;

std::optional<IlpPlan> solveIlpPlan(const Module &m, OpId func, const Mesh &mesh, const std::string &meshName,
                                    const DeviceParams &device, const IlpOptions &opts, std::string *error) {
  std::string ignored;
  if (!error) error = &ignored;
  if (func == kNone || !m.isa(func, "func.func") || m.numRegions(func) == 0) {
    *error = "no function with a body to plan";
    return std::nullopt;
  }
  if (mesh.axes.empty()) {
    *error = "the mesh has no axes";
    return std::nullopt;
  }
  auto t0 = Clock::now();
  Clock::time_point deadline =
      t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.timeLimitSeconds));
  ShardingMap empty;
  empty.addMesh(meshName, mesh);
  SimOptions so;
  so.entry = std::string(FuncView{const_cast<Module &>(m), func}.name());
  so.unknownTripCount = opts.unknownTripCount;
  Simulator sim(m, empty, device, so);
  if (sim.entry() != func) {
    *error = "function '" + so.entry + "' not found";
    return std::nullopt;
  }
  IlpBuilder builder(m, func, mesh, meshName, device, opts);
  if (!builder.build(sim, deadline)) {
    *error = "the ILP was not built within the " + formatSeconds(opts.timeLimitSeconds) + " time limit";
    return std::nullopt;
  }
  double buildSeconds = since(t0);
  std::optional<IlpPlan> plan = builder.solve(error, deadline);
  if (plan) plan->buildSeconds += buildSeconds;
  return plan;
}

IlpPlanSimulation simulateIlpPlan(const Module &m, OpId func, const IlpPlan &plan, const Mesh &mesh,
                                  const std::string &meshName, const DeviceParams &device,
                                  const IlpOptions &opts) {
  FuncView f{m, func};
  ShardingMap map = ShardingMap::fromModule(m);
  map.addMesh(meshName, mesh);
  for (ValueId v = 0; v < plan.shardings.size(); ++v)
    if (plan.shardings[v]) map.set(v, *plan.shardings[v]);
  SimOptions so;
  so.entry = std::string(f.name());
  so.unknownTripCount = opts.unknownTripCount;
  so.undeclaredResultsFollowOperands = opts.freeResultShardings;
  Simulator sim(m, std::move(map), device, so);
  IlpPlanSimulation out;
  out.step = sim.evaluate();
  std::vector<int64_t> transient(m.ops.size(), 0);
  for (size_t i = 0; i < sim.sites().size(); ++i)
    for (const Collective &c : sim.siteCost(i).collectives) transient[sim.sites()[i].op] += c.bytes;
  out.memory = analyzeMemory(m, func, sim.shardings(), [&](OpId op) { return transient[op]; });
  return out;
}

}  // namespace autopart
