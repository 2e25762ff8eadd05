// Shardy's verifier (verify/) on the largest shared model and on generated
// chains up to one million ops where every op result carries a sharding:
// autopart-opt runs it after parsing and after every pass, so it must stay a
// small fraction of parsing (compare BM_ParseSynthetic in ParserBench.cpp).
#include <benchmark/benchmark.h>

#include "asm/Parser.h"
#include "bench/SyntheticProgram.h"
#include "verify/Verifier.h"

using namespace autopart;

namespace {

// The chain of bench/SyntheticProgram.h on a 2x4 mesh, with a sharding on
// every argument and every op result (the densest case for the verifier).
std::unique_ptr<Module> shardedChain(int64_t numOps) {
  std::string text = bench::syntheticChain(numOps);
  size_t body = text.find('\n') + 1;  // after `module ... {`
  text.insert(body, "  sdy.mesh @mesh = <[\"data\"=2, \"model\"=4]>\n");
  ParseError err;
  std::unique_ptr<Module> m = parseModule(std::move(text), "chain.mlir", &err);
  if (!m) return m;
  TensorSharding s;
  s.meshName = "mesh";
  m->walk(m->top, [&](OpId op) {
    if (m->numResults(op) != 1 || !m->types.isTensor(m->type(m->result(op)))) return;
    int64_t rank = m->types.rank(m->type(m->result(op)));
    s.dims.assign(size_t(rank), DimSharding{});
    if (rank >= 1) s.dims[0].axes = {AxisRef{"data"}};
    if (rank >= 2) s.dims[1].axes = {AxisRef{"model"}};
    m->setAttr(op, "sdy.sharding", m->attrs.shardingPerValue({s}));
  });
  return m;
}

void verifyLoop(benchmark::State &state, const Module &m) {
  for (auto _ : state) {
    Diagnostics diags;
    if (!verifyModule(m, diags)) {
      state.SkipWithError(diags.errorText().c_str());
      return;
    }
  }
  state.counters["ops"] = double(m.ops.size());
}

void BM_VerifyLargestModel(benchmark::State &state) {
  std::string text;
  Diagnostics diags;
  readFile(std::string(AUTOPART_SHARED_DIR) + "/models/gpt_oss_20b_sharded_2d.mlir", text, diags);
  ParseError err;
  std::unique_ptr<Module> m = parseModule(std::move(text), "gpt_oss_20b_sharded_2d.mlir", &err);
  if (!m) {
    state.SkipWithError(err.full.c_str());
    return;
  }
  verifyLoop(state, *m);
}
BENCHMARK(BM_VerifyLargestModel)->Unit(benchmark::kMillisecond);

void BM_VerifyShardedChain(benchmark::State &state) {
  std::unique_ptr<Module> m = shardedChain(state.range(0));
  if (!m) {
    state.SkipWithError("chain did not parse");
    return;
  }
  verifyLoop(state, *m);
}
BENCHMARK(BM_VerifyShardedChain)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
