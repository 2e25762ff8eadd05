// Time of the memory-lever rewrites on generated GPT steps (parsing
// excluded): full rematerialization and 4 microbatches, on GPT 1.3B (24
// layers, 12k ops) and GPT-3 175B (96 layers, 48k ops). The lever search
// rewrites the program once per configuration it tries.
#include <benchmark/benchmark.h>

#include "asm/Parser.h"
#include "gen/Models.h"
#include "levers/Levers.h"

using namespace autopart;

namespace {

std::string gptText(const char *preset) {
  std::optional<gen::GptConfig> c = gen::gptPreset(preset);
  Diagnostics diags;
  std::optional<gen::GenResult> r = c ? gen::generateGpt(*c, diags) : std::nullopt;
  return r ? r->text : std::string();
}

void runLever(benchmark::State &state, const char *preset, LeverConfig config) {
  std::string text = gptText(preset);
  size_t ops = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ParseError err;
    std::unique_ptr<Module> m = parseModule(text, "gpt.mlir", &err);
    if (!m) {
      state.SkipWithError(err.full.c_str());
      return;
    }
    OpId f = m->findEntryFunction();
    ops = m->ops.size();
    state.ResumeTiming();
    LeverResult r;
    Diagnostics diags;
    if (!applyLevers(*m, f, config, r, diags)) {
      state.SkipWithError(diags.errorText().c_str());
      return;
    }
    benchmark::DoNotOptimize(r.remat.clonedOps);
  }
  state.counters["ops"] = double(ops);
}

void BM_RematFull_Gpt1_3B(benchmark::State &s) { runLever(s, "1.3b", {RematPolicy::Full, 1}); }
void BM_Microbatch4_Gpt1_3B(benchmark::State &s) { runLever(s, "1.3b", {RematPolicy::None, 4}); }
void BM_RematFull_Gpt175B(benchmark::State &s) { runLever(s, "175b", {RematPolicy::Full, 1}); }
void BM_Microbatch4RematFull_Gpt175B(benchmark::State &s) { runLever(s, "175b", {RematPolicy::Full, 4}); }
BENCHMARK(BM_RematFull_Gpt1_3B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Microbatch4_Gpt1_3B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RematFull_Gpt175B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Microbatch4RematFull_Gpt175B)->Unit(benchmark::kMillisecond);

}  // namespace
