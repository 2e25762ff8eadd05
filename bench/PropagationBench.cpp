// Basic sharding propagation (`-sdy-basic-propagate`) against parsing and
// printing the same program, on the largest shared model (693 user
// shardings) and on a generated chain where one sharding must travel the
// whole program. Propagation should cost no more than parsing: each step is
// a handful of small factor lists, while parsing touches every byte.
//
//   BM_Propagation_Parse/<program>      text -> Module
//   BM_Propagation_Propagate/<program>  BasicPropagation::run on a freshly
//                                       parsed Module
//   BM_Propagation_Print/<program>      the propagated Module -> text
//
// The chain is bench::propagationChain (SyntheticProgram.h): its only
// sharding is on the function result, so propagation walks every op
// backwards through dot_general, reshape, transpose, add and negate.
#include <benchmark/benchmark.h>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "bench/SyntheticProgram.h"
#include "propagation/BasicPropagation.h"

using namespace autopart;

namespace {

const std::string &modelText() {
  static const std::string text = [] {
    std::string t;
    Diagnostics diags;
    readFile(std::string(AUTOPART_SHARED_DIR) + "/models/gpt_oss_20b_sharded_2d.mlir", t, diags);
    return t;
  }();
  return text;
}

const std::string &chainText() {
  static const std::string text = bench::propagationChain(200000);
  return text;
}

const std::string &textOf(int64_t program) { return program == 0 ? modelText() : chainText(); }

const char *nameOf(int64_t program) { return program == 0 ? "gpt_oss_20b_sharded_2d" : "chain_200k"; }

std::unique_ptr<Module> parse(benchmark::State &state, const std::string &text) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "bench.mlir", &err);
  if (!m) state.SkipWithError(err.full.c_str());
  return m;
}

bool propagate(benchmark::State &state, Module &m, PropagationStats *stats = nullptr) {
  Diagnostics diags;
  if (BasicPropagation(m, PropagationOptions{}, diags).run(stats)) return true;
  state.SkipWithError(diags.errorText().c_str());
  return false;
}

void BM_Propagation_Parse(benchmark::State &state) {
  const std::string &text = textOf(state.range(0));
  state.SetLabel(nameOf(state.range(0)));
  for (auto _ : state) {
    std::unique_ptr<Module> m = parse(state, text);
    if (!m) return;
    benchmark::DoNotOptimize(m.get());
  }
}
BENCHMARK(BM_Propagation_Parse)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Propagation_Propagate(benchmark::State &state) {
  const std::string &text = textOf(state.range(0));
  state.SetLabel(nameOf(state.range(0)));
  PropagationStats stats;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<Module> m = parse(state, text);
    state.ResumeTiming();
    if (!m || !propagate(state, *m, &stats)) return;
    state.PauseTiming();
    m.reset();  // freeing the module is not part of propagation
    state.ResumeTiming();
  }
  state.counters["steps"] = double(stats.steps);
  state.counters["updates"] = double(stats.updates);
}
BENCHMARK(BM_Propagation_Propagate)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Propagation_Print(benchmark::State &state) {
  state.SetLabel(nameOf(state.range(0)));
  std::unique_ptr<Module> m = parse(state, textOf(state.range(0)));
  if (!m || !propagate(state, *m)) return;
  for (auto _ : state) {
    std::string out = printModule(*m);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_Propagation_Print)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
