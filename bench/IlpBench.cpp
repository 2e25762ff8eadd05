// The ILP baseline (search/ilp/IlpBaseline.h) end to end -- strategies, costs,
// CBC -- on the shared JAX models and on synthetic MLP chains, on an
// H100 preset with a data=4 x model=2 mesh. Counters: the problem size
// (variables, binaries, constraints), whether CBC proved optimality, the
// ILP's step time and the simulator's step time for the returned plan.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "asm/Parser.h"
#include "bench/SyntheticProgram.h"
#include "search/ilp/IlpBaseline.h"
#include "sim/Hardware.h"

using namespace autopart;

namespace {

Mesh benchMesh() {
  Mesh m;
  m.axes = {{"data", 4}, {"model", 2}};
  return m;
}

DeviceParams benchDevice() {
  Diagnostics diags;
  std::optional<Hardware> hw = loadHardware("h100-80gb", diags);
  return hw ? hardwareDeviceParams(*hw, benchMesh()) : DeviceParams{};
}

std::unique_ptr<Module> parseText(const std::string &text, const std::string &name) {
  ParseError err;
  return parseModule(text, name, &err);
}

std::string readModel(const std::string &file) {
  std::ifstream in(std::string(AUTOPART_SHARED_DIR) + "/models/" + file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

OpId mainOf(const Module &m) {
  for (OpId f : m.functions())
    if (FuncView{m, f}.name() == "main") return f;
  return m.functions().empty() ? kNone : m.functions().front();
}

void runIlp(benchmark::State &state, const std::string &text, const std::string &name) {
  std::unique_ptr<Module> m = parseText(text, name);
  if (!m) {
    state.SkipWithError(("cannot parse " + name).c_str());
    return;
  }
  OpId func = mainOf(*m);
  Mesh mesh = benchMesh();
  DeviceParams device = benchDevice();
  IlpOptions opts;
  opts.timeLimitSeconds = 60;
  std::optional<IlpPlan> plan;
  std::string error;
  for (auto _ : state) {
    plan = solveIlpPlan(*m, func, mesh, "mesh", device, opts, &error);
    if (!plan) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  IlpPlanSimulation sim = simulateIlpPlan(*m, func, *plan, mesh, "mesh", device, opts);
  state.counters["ops"] = double(plan->numOps);
  state.counters["groups"] = double(plan->numGroups);
  state.counters["vars"] = double(plan->numVariables);
  state.counters["binaries"] = double(plan->numBinaries);
  state.counters["rows"] = double(plan->numConstraints);
  state.counters["optimal"] = plan->provedOptimal ? 1 : 0;
  state.counters["build_s"] = plan->buildSeconds;
  state.counters["cbc_s"] = plan->solveSeconds;
  state.counters["ilp_us"] = plan->objectiveSeconds * 1e6;
  state.counters["sim_us"] = sim.step.stepSeconds * 1e6;
  state.counters["peak_MiB"] = double(sim.memory.peakBytes) / 1048576.0;
}

void BM_IlpModel(benchmark::State &state, const char *file) { runIlp(state, readModel(file), file); }

void BM_IlpChain(benchmark::State &state) {
  runIlp(state, bench::syntheticChain(state.range(0)), "chain.mlir");
}

}  // namespace

BENCHMARK_CAPTURE(BM_IlpModel, mnist_mlp, "jax_mnist_mlp_train_step.mlir")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_IlpModel, mnist_cnn, "jax_mnist_cnn_train_step.mlir")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_IlpModel, mlp_pipeline, "jax_mlp_pipeline_loss.mlir")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_IlpModel, mobilenet_v2, "mobilenet_v2.mlir")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_IlpModel, bert_base, "pt_bert_base.mlir")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_IlpChain)->Arg(100)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond)->Iterations(1);
