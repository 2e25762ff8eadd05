// Named-dimension analysis time on generated chains of 10k / 100k / 1M ops
// (parsing excluded).
#include <benchmark/benchmark.h>

#include "analysis/NamedDimensions.h"
#include "asm/Parser.h"
#include "bench/SyntheticProgram.h"

using namespace autopart;

namespace {

void BM_NamedDimensions(benchmark::State &state) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(bench::syntheticChain(state.range(0)), "bench.mlir", &err);
  if (!m) {
    state.SkipWithError(err.full.c_str());
    return;
  }
  size_t names = 0;
  for (auto _ : state) {
    NamedDimensions nd = analyzeNamedDimensions(*m);
    names = nd.names.size();
    benchmark::DoNotOptimize(nd.names.data());
  }
  state.counters["ops"] = double(state.range(0));
  state.counters["names"] = double(names);
}
BENCHMARK(BM_NamedDimensions)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
