// Simulator speed on synthetic MLP chains (bench/SyntheticProgram.h) sharded
// data-parallel over data=8 on a data=8 x model=4 mesh, every op carrying its
// sharding rule: a full evaluation (every op re-costed) against an
// incremental one (one named dimension assigned, only its ops re-costed).
// Targets: full 10k ops <= 5 ms, 100k <= 50 ms; incremental >= 10x faster.
// The FSDP variant gathers the weight at every dot, so the two-stream
// schedule (sim/StepSchedule.h) has a collective per 4 ops to order on
// every evaluation.
// The chain repeats one layer, the best case for the simulator's cost memo,
// so BM_SimulateFullModel also times a real program (Llama 3.1 8B, 4980 ops,
// data parallel) whose sites repeat only as its layers do; the counter
// memo_hit_rate says how much of each full evaluation the memo served.
#include <benchmark/benchmark.h>

#include <sstream>

#include "asm/Parser.h"
#include "bench/SyntheticProgram.h"
#include "sim/Simulator.h"

using namespace autopart;

namespace {

// Attaches the sharding rule of each op of the synthetic chain, as the rule
// registry would, so the benchmark measures the simulator alone.
std::string withRules(const std::string &text) {
  std::istringstream in(text);
  std::ostringstream out;
  out << "sdy.mesh @mesh = <[\"data\"=8, \"model\"=4]>\n";
  std::string line;
  const std::string ew = " {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=64, j=256}>}";
  while (std::getline(in, line)) {
    if (line.find("stablehlo.dot_general") != std::string::npos) {
      size_t at = line.rfind(" : (");
      line.insert(at, " {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=64, j=256, k=256} reduction={j}>}");
    } else if (line.find("stablehlo.broadcast_in_dim") != std::string::npos) {
      size_t at = line.rfind(" : (");
      line.insert(at, " {sdy.sharding_rule = #sdy.op_sharding_rule<([j])->([i, j]) {i=64, j=256}>}");
    } else if (line.find("stablehlo.add") != std::string::npos || line.find("stablehlo.maximum") != std::string::npos) {
      size_t at = line.rfind(" : ");
      line.insert(at, ew);
    }
    out << line << "\n";
  }
  return out.str();
}

struct Fixture {
  std::unique_ptr<Module> m;
  std::unique_ptr<Simulator> sim;
  ValueId middle = kNone;
};

// `fsdp`: the shared weight also sharded over "model" at rest, so every dot
// all-gathers it: one collective per 4 ops for the schedule to order.
Fixture &fixture(int64_t numOps, bool fsdp = false) {
  static std::map<std::pair<int64_t, bool>, Fixture> cache;
  Fixture &f = cache[{numOps, fsdp}];
  if (f.m) return f;
  ParseError err;
  f.m = parseModule(withRules(bench::syntheticChain(numOps)), "chain.mlir", &err);
  ShardingMap map = ShardingMap::fromModule(*f.m);
  // Data parallel: every 64-row activation is split over "data".
  for (ValueId v = 0; v < f.m->values.size(); ++v) {
    TypeId t = f.m->type(v);
    if (!f.m->types.isTensor(t) || f.m->types.rank(t) != 2 || f.m->types.shape(t)[0] != 64) continue;
    TensorSharding s = TensorSharding::closed("mesh", 2);
    s.dims[0].axes.push_back(AxisRef{"data"});
    map.set(v, s);
  }
  if (fsdp) {
    TensorSharding w = TensorSharding::closed("mesh", 2);
    w.dims[0].axes.push_back(AxisRef{"model"});
    map.set(FuncView{*f.m, f.m->functions().front()}.args()[1], w);
  }
  f.sim = std::make_unique<Simulator>(*f.m, std::move(map), DeviceParams{});
  f.sim->evaluate();
  f.middle = f.m->result(f.sim->sites()[f.sim->sites().size() / 2].op);
  return f;
}

void BM_SimulateFull(benchmark::State &state) {
  Fixture &f = fixture(state.range(0), state.range(1) != 0);
  size_t hits = 0;
  for (auto _ : state) {
    f.sim->invalidateAll();
    size_t before = f.sim->memoHits();
    benchmark::DoNotOptimize(f.sim->evaluate().stepSeconds);
    hits += f.sim->memoHits() - before;
  }
  double sites = double(state.iterations()) * double(f.sim->sites().size());
  state.SetItemsProcessed(int64_t(sites));
  state.counters["memo_hit_rate"] = sites ? double(hits) / sites : 0;
}

void BM_SimulateFullModel(benchmark::State &state) {
  static std::unique_ptr<Module> m;
  static std::unique_ptr<Simulator> sim;
  if (!m) {
    std::string text;
    Diagnostics diags;
    if (!readFile(std::string(AUTOPART_SHARED_DIR) + "/models/llama31_8b_instruct.mlir", text, diags)) {
      state.SkipWithError(diags.errorText().c_str());
      return;
    }
    ParseError perr;
    m = parseModule(text, "llama31_8b_instruct.mlir", &perr);
    if (!m) {
      state.SkipWithError(perr.full.c_str());
      return;
    }
    ShardingMap map;
    map.addMesh("mesh", Mesh{{{"data", 8}, {"model", 4}}, {}});
    // Data parallel: every entry argument split over "data" on its first
    // dimension when 8 divides it.
    OpId entry = m->functions().front();
    for (OpId fn : m->functions())
      if (FuncView{*m, fn}.name() == "main") entry = fn;
    FuncView f{*m, entry};
    for (ValueId v : f.args()) {
      TypeId t = m->type(v);
      if (!m->types.isTensor(t) || m->types.rank(t) == 0 || m->types.shape(t)[0] % 8) continue;
      TensorSharding s = TensorSharding::closed("mesh", size_t(m->types.rank(t)));
      s.dims[0].axes.push_back(AxisRef{"data"});
      map.set(v, s);
    }
    sim = std::make_unique<Simulator>(*m, std::move(map), DeviceParams{});
  }
  size_t hits = 0, sites = 0;
  for (auto _ : state) {
    sim->invalidateAll();
    size_t before = sim->memoHits();
    benchmark::DoNotOptimize(sim->evaluate().stepSeconds);
    hits += sim->memoHits() - before;
    sites += sim->sites().size();
  }
  state.SetItemsProcessed(int64_t(sites));
  state.counters["sites"] = double(sim->sites().size());
  state.counters["memo_hit_rate"] = sites ? double(hits) / double(sites) : 0;
}

void BM_SimulateIncremental(benchmark::State &state) {
  Fixture &f = fixture(state.range(0), state.range(1) != 0);
  // One named dimension: the feature dimension of one activation, over model.
  DimRef dims[] = {{f.middle, 1}};
  for (auto _ : state) benchmark::DoNotOptimize(f.sim->deltaAssign(dims, AxisRef{"model"}));
}

}  // namespace

// Second argument: 1 = the FSDP variant (a collective at every dot).
BENCHMARK(BM_SimulateFull)->Args({10000, 0})->Args({100000, 0})->Args({10000, 1})->Args({100000, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimulateFullModel)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimulateIncremental)->Args({10000, 0})->Args({100000, 0})->Args({10000, 1})->Args({100000, 1})
    ->Unit(benchmark::kMicrosecond);
