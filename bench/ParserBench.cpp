// Parse and print throughput (bytes/s) on the largest shared model and on
// generated chains up to one million ops.
#include <benchmark/benchmark.h>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "bench/SyntheticProgram.h"

using namespace autopart;

namespace {

std::string largestModel() {
  std::string text;
  Diagnostics diags;
  readFile(std::string(AUTOPART_SHARED_DIR) + "/models/gpt_oss_20b_sharded_2d.mlir", text, diags);
  return text;
}

void parseText(benchmark::State &state, const std::string &text) {
  for (auto _ : state) {
    ParseError err;
    std::unique_ptr<Module> m = parseModule(text, "bench.mlir", &err);
    if (!m) state.SkipWithError(err.full.c_str());
    benchmark::DoNotOptimize(m.get());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}

void printText(benchmark::State &state, const std::string &text) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "bench.mlir", &err);
  if (!m) {
    state.SkipWithError(err.full.c_str());
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string out = printModule(*m);
    bytes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
}

void BM_ParseLargestModel(benchmark::State &state) {
  static const std::string text = largestModel();
  parseText(state, text);
}
BENCHMARK(BM_ParseLargestModel)->Unit(benchmark::kMillisecond);

void BM_PrintLargestModel(benchmark::State &state) {
  static const std::string text = largestModel();
  printText(state, text);
}
BENCHMARK(BM_PrintLargestModel)->Unit(benchmark::kMillisecond);

void BM_ParseSynthetic(benchmark::State &state) {
  std::string text = bench::syntheticChain(state.range(0));
  parseText(state, text);
  state.counters["ops"] = double(state.range(0));
}
BENCHMARK(BM_ParseSynthetic)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

void BM_PrintSynthetic(benchmark::State &state) {
  std::string text = bench::syntheticChain(state.range(0));
  printText(state, text);
  state.counters["ops"] = double(state.range(0));
}
BENCHMARK(BM_PrintSynthetic)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
