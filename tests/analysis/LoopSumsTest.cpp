#include "analysis/LoopSums.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

constexpr const char *kAccumulate = R"(
func.func @main(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<8x4xf32>
  %r:4 = stablehlo.while(%i = %c0, %acc = %z, %other = %z, %both = %z) : tensor<i64>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i64>
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %i1 = stablehlo.add %i, %c1 : tensor<i64>
    %g = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
    %g2 = stablehlo.dot_general %g, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %acc1 = stablehlo.add %acc, %g2 : tensor<8x4xf32>
    %o1 = stablehlo.multiply %other, %w : tensor<8x4xf32>
    %h = stablehlo.tanh %w : tensor<8x4xf32>
    %b1 = stablehlo.add %both, %h : tensor<8x4xf32>
    %b2 = stablehlo.add %b1, %h : tensor<8x4xf32>
    stablehlo.return %i1, %acc1, %o1, %b2 : tensor<i64>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
  return %r#1, %r#2 : tensor<8x4xf32>, tensor<8x4xf32>
}
)";

TEST(LoopSums, FindsAnAccumulatorAndNothingElse) {
  auto m = testing::parse(kAccumulate);
  ASSERT_TRUE(m);
  OpId loop = testing::opsNamed(*m, "stablehlo.while")[0];
  LoopSums sums(*m, m->functions()[0]);
  // Result 1: acc + g2. Result 0 adds a constant to a counter (the part is
  // not computed in the body from... it is: c1 is a constant, read once) --
  // a counter is a sum too; results 2 (a product) and 3 (h read twice) are
  // not.
  const LoopSum *s = sums.of(m->result(loop, 1));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->index, 1u);
  EXPECT_EQ(m->opName(m->definingOp(s->part)), "stablehlo.dot_general");
  EXPECT_EQ(s->init, m->operand(loop, 1));
  EXPECT_EQ(sums.of(m->result(loop, 2)), nullptr);
  EXPECT_EQ(sums.of(m->result(loop, 3)), nullptr);
  EXPECT_EQ(sums.of(m->operand(loop, 0)), nullptr);  // not a loop result
}

}  // namespace
}  // namespace autopart
