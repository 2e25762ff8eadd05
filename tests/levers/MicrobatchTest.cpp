#include "levers/Microbatch.h"

#include "levers/Levers.h"
#include "sim/Flops.h"
#include "sim/Memory.h"
#include "sim/TripCount.h"
#include "tests/levers/LeverTestUtil.h"

namespace autopart {
namespace {

using testing::kMlpStep;
using testing::opsNamed;
using testing::parse;

TEST(Microbatch, TheStepRunsInALoopOverSlicesAndSumsWhatReducesTheBatch) {
  auto m = parse(kMlpStep);
  ASSERT_TRUE(m);
  OpId f = m->functions()[0];
  MicrobatchResult r;
  Diagnostics diags;
  ASSERT_TRUE(microbatch(*m, f, 4, r, diags)) << diags.errorText();
  EXPECT_EQ(r.batch, 8);
  EXPECT_EQ(r.microbatch, 2);
  EXPECT_EQ(r.accumulators, 3);  // loss, gw2, gw1
  ASSERT_NE(r.loop, kNone);
  EXPECT_EQ(staticTripCount(*m, r.loop), 4);
  // The forward matmul now sees 2 rows; the weight gradients keep their shape.
  std::vector<OpId> dots = opsNamed(*m, "stablehlo.dot_general");
  ASSERT_EQ(dots.size(), 5u);
  EXPECT_EQ(m->types.shape(m->type(m->result(dots[0]))), (std::vector<int64_t>{2, 16}));
  EXPECT_EQ(m->types.shape(m->type(m->result(dots[1]))), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(m->types.shape(m->type(m->result(dots[2]))), (std::vector<int64_t>{16, 4}));
  EXPECT_EQ(m->types.shape(m->type(m->result(dots[3]))), (std::vector<int64_t>{2, 16}));
  for (OpId d : dots) EXPECT_EQ(m->ops[d].parent, r.body);
  // The update reads the loop's sums.
  OpId ret = FuncView{*m, f}.returnOp();
  EXPECT_EQ(m->definingOp(m->operand(ret, 0)), r.loop);
}

TEST(Microbatch, SameFlopsLessActivationMemory) {
  auto before = testing::smallGpt(2, 8);
  auto after = testing::smallGpt(2, 8);
  ASSERT_TRUE(before && after);
  LeverResult r;
  Diagnostics diags;
  OpId f = after->findEntryFunction();
  ASSERT_TRUE(applyLevers(*after, f, LeverConfig{RematPolicy::None, 4}, r, diags)) << diags.errorText();
  auto flops = [](const Module &m) {
    double total = 0;
    OpId fn = m.findEntryFunction();
    m.walk(fn, [&](OpId op) {
      double n = 1;
      for (OpId p = m.parentOp(op); p != fn && p != kNone; p = m.parentOp(p))
        if (m.isa(p, "stablehlo.while")) n *= double(staticTripCount(m, p).value_or(1));
      total += opFlops(m, op) * n;
    });
    return total;
  };
  EXPECT_NEAR(flops(*after) / flops(*before), 1.0, 0.01);
  int64_t peak0 = analyzeMemory(*before, before->findEntryFunction(), ShardingMap::fromModule(*before)).peakBytes;
  int64_t peak1 = analyzeMemory(*after, f, ShardingMap::fromModule(*after)).peakBytes;
  EXPECT_LT(peak1, peak0 / 2);
}

TEST(Microbatch, RefusesAStepThatMixesExamples) {
  auto m = parse(R"(
func.func public @main(%w: tensor<4x4xf32> {jax.arg_info = "params['w']"}, %x: tensor<8x4xf32> {jax.arg_info = "batch['x']"}) -> (tensor<f32>, tensor<4x4xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %mx = stablehlo.reduce(%h init: %zero) applies stablehlo.maximum across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  %loss = stablehlo.reduce(%mx init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %g = stablehlo.dot_general %x, %h, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %nw = stablehlo.subtract %w, %g : tensor<4x4xf32>
  return %loss, %nw : tensor<f32>, tensor<4x4xf32>
}
)");
  ASSERT_TRUE(m);
  MicrobatchResult r;
  Diagnostics diags;
  BlockId entry = FuncView{*m, m->functions()[0]}.entry();
  size_t ops = m->blocks[entry].ops.size();
  EXPECT_FALSE(microbatch(*m, m->functions()[0], 2, r, diags));
  EXPECT_NE(diags.errorText().find("reduces the batch without summing it"), std::string::npos) << diags.errorText();
  // Refused before anything changed.
  EXPECT_EQ(m->blocks[entry].ops.size(), ops);
}

TEST(Microbatch, RefusesABatchThatDoesNotSplit) {
  auto m = parse(kMlpStep);
  MicrobatchResult r;
  Diagnostics diags;
  EXPECT_FALSE(microbatch(*m, m->functions()[0], 3, r, diags));
  EXPECT_NE(diags.errorText().find("does not split into 3"), std::string::npos);
}

TEST(Levers, ParseAndFormat) {
  Diagnostics diags;
  std::optional<LeverConfig> c = parseLevers({"remat:selective", "microbatch:8"}, diags);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->remat, RematPolicy::Selective);
  EXPECT_EQ(c->microbatches, 8);
  EXPECT_EQ(formatLevers(*c), "microbatch:8,remat:selective");
  EXPECT_EQ(formatLevers(LeverConfig{}), "none");
  EXPECT_TRUE(isLeverEntry("remat:full"));
  EXPECT_FALSE(isLeverEntry("fsdp"));
  for (const char *bad : {"remat:most", "microbatch:0", "microbatch:x"}) {
    Diagnostics d;
    EXPECT_FALSE(parseLevers({bad}, d)) << bad;
    EXPECT_TRUE(d.hasErrors());
  }
}

TEST(Levers, BothRewritesCompose) {
  auto m = testing::smallGpt(2, 8);
  ASSERT_TRUE(m);
  OpId f = m->findEntryFunction();
  LeverResult r;
  Diagnostics diags;
  ASSERT_TRUE(applyLevers(*m, f, LeverConfig{RematPolicy::Full, 2}, r, diags)) << diags.errorText();
  EXPECT_GT(r.remat.recomputedValues, 0);
  EXPECT_EQ(r.remat.layers, 2);
  // The recomputation lives in the loop body.
  for (OpId b : opsNamed(*m, "stablehlo.optimization_barrier")) EXPECT_EQ(m->parentOp(b), r.loop);
  EXPECT_NE(r.summary.find("2 microbatches of 4"), std::string::npos) << r.summary;
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

// A real JAX export (value_and_grad + SGD of an MNIST MLP, batch 128,
// ../shared/models): its labels are a data argument of their own, indexed
// with take_along_axis; both levers apply, with the same FLOPs for
// microbatching.
TEST(Levers, ApplyToARealJaxTrainingStep) {
  std::string path = std::string(AUTOPART_SHARED_DIR) + "/models/jax_mnist_mlp_train_step.mlir";
  std::string text;
  Diagnostics io;
  if (!readFile(path, text, io)) GTEST_SKIP() << "no " << path;
  for (LeverConfig c : {LeverConfig{RematPolicy::None, 4}, LeverConfig{RematPolicy::Full, 1},
                        LeverConfig{RematPolicy::Full, 2}}) {
    auto m = testing::parse(text, path);
    ASSERT_TRUE(m);
    OpId f = m->findEntryFunction();
    LeverResult r;
    Diagnostics diags;
    ASSERT_TRUE(applyLevers(*m, f, c, r, diags)) << formatLevers(c) << ": " << diags.errorText();
    if (c.microbatches > 1) {
      EXPECT_EQ(r.microbatchSize, 128 / c.microbatches);
      EXPECT_EQ(staticTripCount(*m, r.loop), c.microbatches);
    }
    if (c.remat != RematPolicy::None) {
      EXPECT_GT(r.remat.recomputedValues, 0) << formatLevers(c);
    }
  }
}

}  // namespace
}  // namespace autopart
