#include "levers/Remat.h"

#include "analysis/NamedDimensions.h"
#include "sim/Memory.h"
#include "rules/OpInfo.h"
#include "sim/Flops.h"
#include "tests/levers/LeverTestUtil.h"

namespace autopart {
namespace {

using testing::opsNamed;

double totalFlops(const Module &m) {
  double f = 0;
  m.walk(m.findEntryFunction(), [&](OpId op) { f += opFlops(m, op); });
  return f;
}

int64_t peakOf(const Module &m) {
  return analyzeMemory(m, m.findEntryFunction(), ShardingMap::fromModule(m)).peakBytes;
}

RematResult rewrite(Module &m, RematPolicy p) {
  RematResult r;
  Diagnostics diags;
  OpId f = m.findEntryFunction();
  EXPECT_TRUE(rematerialize(m, f, FuncView{m, f}.entry(), p, r, diags));
  return r;
}

TEST(Remat, PoliciesTradeFlopsForMemoryInOrder) {
  // Six layers of sequences of 256: the saved activations (the S x S scores)
  // outweigh the weights and the transient buffers of one recomputation.
  auto base = testing::smallGpt(6, 8, 256);
  ASSERT_TRUE(base);
  double flops0 = totalFlops(*base);
  int64_t peak0 = peakOf(*base);
  struct Row {
    RematPolicy p;
    double flops;
    int64_t peak;
  };
  std::vector<Row> rows;
  for (RematPolicy p : {RematPolicy::Selective, RematPolicy::DotsNoBatch, RematPolicy::Full}) {
    auto m = testing::smallGpt(6, 8, 256);
    RematResult r = rewrite(*m, p);
    EXPECT_GT(r.recomputedValues, 0) << rematPolicyName(p);
    rows.push_back({p, totalFlops(*m), peakOf(*m)});
    EXPECT_GT(rows.back().flops, flops0) << rematPolicyName(p);
    EXPECT_LT(rows.back().peak, peak0) << rematPolicyName(p);
  }
  // Full recomputation costs the most FLOPs and saves the most memory.
  EXPECT_GT(rows[2].flops, rows[0].flops);
  EXPECT_LT(rows[2].peak, rows[0].peak);
  EXPECT_LT(rows[2].peak, rows[1].peak);
}

TEST(Remat, SelectiveRecomputesOnlyTheAttentionScores) {
  auto m = testing::smallGpt(3);
  ASSERT_TRUE(m);
  RematResult r = rewrite(*m, RematPolicy::Selective);
  EXPECT_EQ(r.barriers, 3);  // one per layer
  NamedDimensions names = analyzeNamedDimensions(*m);
  for (ValueId v = 0; v < r.recomputes.size(); ++v) {
    if (r.recomputes[v] == kNone || m->isa(m->definingOp(v), "stablehlo.optimization_barrier")) continue;
    // Every copy is part of computing a [batch, heads, seq, seq] value.
    const std::vector<int64_t> &shape = m->types.shape(m->type(v));
    ASSERT_GE(shape.size(), 3u) << m->where(m->definingOp(v));
  }
}

TEST(Remat, CopiesReadTheirInputsThroughABarrier) {
  auto m = testing::smallGpt(2);
  ASSERT_TRUE(m);
  RematResult r = rewrite(*m, RematPolicy::Full);
  ASSERT_GT(r.clonedOps, 0);
  // A copy reads other copies, barrier results or constants (iota too);
  // never the
  // forward values it stands in for (that would be no recomputation).
  for (ValueId v = 0; v < r.recomputes.size(); ++v) {
    OpId op = m->definingOp(v);
    if (r.recomputes[v] == kNone || op == kNone || m->isa(op, "stablehlo.optimization_barrier")) continue;
    if (m->result(op) != v) continue;
    for (ValueId u : m->operands(op)) {
      OpId d = m->definingOp(u);
      bool ok = (u < r.recomputes.size() && r.recomputes[u] != kNone) ||
                (d != kNone && opInfo(*m, d).category == OpCategory::Constant);
      EXPECT_TRUE(ok) << m->where(op) << " " << m->opName(op) << " reads an original value defined by "
                      << (d == kNone ? "an argument" : std::string(m->opName(d)));
    }
  }
}

TEST(Remat, NoneAndAStepWithoutBackwardAreLeftAlone) {
  auto m = testing::smallGpt(2);
  size_t ops = m->ops.size();
  RematResult r = rewrite(*m, RematPolicy::None);
  EXPECT_EQ(m->ops.size(), ops);
  EXPECT_EQ(r.recomputedValues, 0);
  auto inference = testing::parse(R"(
func.func @main(%w: tensor<4x4xf32> {jax.arg_info = "params['w']"}, %x: tensor<8x4xf32> {jax.arg_info = "batch['x']"}) -> tensor<8x4xf32> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %a = stablehlo.tanh %h : tensor<8x4xf32>
  return %a : tensor<8x4xf32>
}
)");
  RematResult q = rewrite(*inference, RematPolicy::Full);
  EXPECT_EQ(q.recomputedValues, 0);
  EXPECT_TRUE(opsNamed(*inference, "stablehlo.optimization_barrier").empty());
}

TEST(Remat, PolicyNames) {
  for (RematPolicy p : {RematPolicy::None, RematPolicy::Full, RematPolicy::Selective, RematPolicy::Dots,
                        RematPolicy::DotsNoBatch})
    EXPECT_EQ(parseRematPolicy(rematPolicyName(p)), p);
  EXPECT_FALSE(parseRematPolicy("most"));
}

}  // namespace
}  // namespace autopart
