#include "levers/StepStructure.h"

#include <algorithm>

#include "tests/levers/LeverTestUtil.h"

namespace autopart {
namespace {

using testing::kMlpStep;
using testing::parse;
using testing::resultOf;

TEST(StepStructure, ForwardIsWhatTheLossIsComputedFrom) {
  auto m = parse(kMlpStep);
  ASSERT_TRUE(m);
  OpId f = m->functions()[0];
  StepStructure s = analyzeStep(*m, f, FuncView{*m, f}.entry(), dataArguments(*m, f));
  // dot, tanh, dot, subtract, multiply, constant, reduce: the loss; the
  // constant 2 starts the backward pass.
  ASSERT_EQ(s.boundary, 7u);
  for (size_t i = 0; i < s.ops.size(); ++i) EXPECT_EQ(bool(s.forward[i]), i < 7) << i;
  // The backward pass reads tanh (for gw2 and its derivative) and the error;
  // it does not read the first matmul's output nor the loss.
  ValueId a = resultOf(*m, "stablehlo.tanh"), d = resultOf(*m, "stablehlo.subtract");
  EXPECT_EQ(s.residuals, (std::vector<ValueId>{a, d}));
}

TEST(StepStructure, DataDependenceFollowsTheBatch) {
  auto m = parse(kMlpStep);
  ASSERT_TRUE(m);
  OpId f = m->functions()[0];
  StepStructure s = analyzeStep(*m, f, FuncView{*m, f}.entry(), dataArguments(*m, f));
  EXPECT_TRUE(s.dataDependent[resultOf(*m, "stablehlo.tanh")]);
  EXPECT_FALSE(s.dataDependent[resultOf(*m, "stablehlo.constant")]);
  EXPECT_EQ(dataArguments(*m, f).size(), 2u);  // x and t
}

TEST(StepStructure, LayerBoundariesRecurOncePerLayer) {
  for (int64_t layers : {2, 3, 5}) {
    auto m = testing::smallGpt(layers);
    ASSERT_TRUE(m);
    OpId f = m->findEntryFunction();
    StepStructure s = analyzeStep(*m, f, FuncView{*m, f}.entry(), dataArguments(*m, f));
    EXPECT_EQ(s.layerBoundaries, layers);
    // Each boundary is crossed by the residual stream: [batch, seq, d_model].
    for (ValueId v : s.checkpoints) EXPECT_EQ(m->types.shape(m->type(v)).back(), 64) << layers;
  }
}

TEST(StepStructure, WithoutALossTheForwardEndsAtTheLivenessPeak) {
  // A bare gradient: no value the step returns is loss-like (the single
  // result carries w to the next step).
  auto m = parse(R"(
func.func @main(%w: tensor<4x4xf32> {jax.arg_info = "params['w']"}, %x: tensor<64x4xf32> {jax.arg_info = "batch['x']"}) -> tensor<4x4xf32> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x4xf32>, tensor<4x4xf32>) -> tensor<64x4xf32>
  %a = stablehlo.tanh %h : tensor<64x4xf32>
  %g = stablehlo.dot_general %x, %a, contracting_dims = [0] x [0] : (tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<4x4xf32>
  %n = stablehlo.subtract %w, %g : tensor<4x4xf32>
  return %n : tensor<4x4xf32>
}
)");
  ASSERT_TRUE(m);
  OpId f = m->functions()[0];
  StepStructure s = analyzeStep(*m, f, FuncView{*m, f}.entry(), dataArguments(*m, f));
  EXPECT_EQ(s.boundary, 1u);  // %h is the largest live set's start
}

}  // namespace
}  // namespace autopart
