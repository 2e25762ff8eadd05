// Passes that insert ops, against parsing the same program: on
// bench::reshardChain, where every op needs a reshard, the minimal
// `-sdy-insert-explicit-reshards` inserts one `sdy.reshard` per op. With a
// rewrite of every use per insertion (a walk of the function) or a linear
// search of the block for each insertion point, the pass is quadratic in the
// program; with use lists and a positional hint (ir/Module.h) it stays a
// small multiple of parsing. The 10k/40k pair shows the growth: linear
// work quadruples for 4x the ops.
//
//   BM_Export_Parse/<ops>                  text -> Module
//   BM_Export_InsertExplicitReshards/<ops> the pass on a freshly parsed Module
#include <benchmark/benchmark.h>

#include <map>

#include "asm/Parser.h"
#include "bench/SyntheticProgram.h"
#include "ir/Pass.h"

using namespace autopart;

namespace {

const std::string &chainText(int64_t numOps) {
  static std::map<int64_t, std::string> texts;
  auto it = texts.find(numOps);
  if (it == texts.end()) it = texts.emplace(numOps, bench::reshardChain(numOps)).first;
  return it->second;
}

std::unique_ptr<Module> parse(benchmark::State &state, const std::string &text) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "bench.mlir", &err);
  if (!m) state.SkipWithError(err.full.c_str());
  return m;
}

void BM_Export_Parse(benchmark::State &state) {
  const std::string &text = chainText(state.range(0));
  for (auto _ : state) {
    std::unique_ptr<Module> m = parse(state, text);
    if (!m) return;
    benchmark::DoNotOptimize(m.get());
  }
}
BENCHMARK(BM_Export_Parse)->Arg(10000)->Arg(40000)->Unit(benchmark::kMillisecond);

void BM_Export_InsertExplicitReshards(benchmark::State &state) {
  const std::string &text = chainText(state.range(0));
  const PassInfo *pass = lookupPass("sdy-insert-explicit-reshards");
  if (!pass) {
    state.SkipWithError("sdy-insert-explicit-reshards is not registered");
    return;
  }
  size_t inserted = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<Module> m = parse(state, text);
    size_t before = m ? m->ops.size() : 0;
    state.ResumeTiming();
    Diagnostics diags;
    if (!m || !pass->run(*m, PassOptions{}, diags)) {
      state.SkipWithError(m ? diags.errorText().c_str() : "parse failed");
      return;
    }
    state.PauseTiming();
    inserted = m->ops.size() - before;
    m.reset();
    state.ResumeTiming();
  }
  state.counters["inserted"] = double(inserted);
}
BENCHMARK(BM_Export_InsertExplicitReshards)->Arg(10000)->Arg(40000)->Unit(benchmark::kMillisecond);

}  // namespace
