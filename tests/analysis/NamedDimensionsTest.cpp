#include <gtest/gtest.h>

#include "analysis/NamedDimensions.h"

#include "tests/TestUtil.h"

using namespace autopart;

namespace {

using autopart::testing::parse;

ValueId arg(const Module &m, size_t i, size_t func = 0) {
  return FuncView{m, m.functions()[func]}.args()[i];
}

// Operand i of the entry function's return.
ValueId returned(const Module &m, uint32_t i) {
  return m.operand(FuncView{m, m.functions()[0]}.returnOp(), i);
}

TEST(NamedDimensionsTest, MatmulChainSharesHiddenName) {
  auto m = parse(R"(
func.func @main(%x: tensor<256x1024xf32>, %w1: tensor<1024x4096xf32>, %w2: tensor<4096x512xf32>) -> tensor<256x512xf32> {
  %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x4096xf32>
  %1 = stablehlo.dot_general %0, %w2, contracting_dims = [1] x [0] : (tensor<256x4096xf32>, tensor<4096x512xf32>) -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
})");
  NamedDimensions nd = analyzeNamedDimensions(*m);
  EXPECT_EQ(nd.names.size(), 4u);
  EXPECT_TRUE(nd.conflicts.empty());
  // The hidden 4096 dimension: w1 dim 1, the first result dim 1, w2 dim 0.
  NameId32 hidden = nd.nameOf(arg(*m, 1), 1);
  ASSERT_NE(hidden, kNoDimName);
  EXPECT_EQ(nd.nameOf(arg(*m, 2), 0), hidden);
  EXPECT_EQ(nd.names[hidden].size, 4096);
  EXPECT_EQ(nd.names[hidden].members.size(), 3u);
  EXPECT_TRUE(nd.names[hidden].isReduction());
  // The batch name reaches the output; the input feature name does not.
  EXPECT_EQ(nd.nameOf(arg(*m, 0), 0), nd.nameOf(returned(*m, 0), 0));
  EXPECT_NE(nd.nameOf(arg(*m, 0), 1), nd.nameOf(arg(*m, 0), 0));
}

TEST(NamedDimensionsTest, MlpBackwardLinksGradientsToWeights) {
  // Forward h = x w; backward dw = xᵀ dh, dx = dh wᵀ.
  auto m = parse(R"(
func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>, %dh: tensor<64x256xf32>) -> (tensor<128x256xf32>, tensor<64x128xf32>) {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %g = stablehlo.add %h, %dh : tensor<64x256xf32>
  %dw = stablehlo.dot_general %x, %g, contracting_dims = [0] x [0] : (tensor<64x128xf32>, tensor<64x256xf32>) -> tensor<128x256xf32>
  %dx = stablehlo.dot_general %g, %w, contracting_dims = [1] x [1] : (tensor<64x256xf32>, tensor<128x256xf32>) -> tensor<64x128xf32>
  return %dw, %dx : tensor<128x256xf32>, tensor<64x128xf32>
})");
  NamedDimensions nd = analyzeNamedDimensions(*m);
  EXPECT_TRUE(nd.conflicts.empty());
  EXPECT_EQ(nd.names.size(), 3u);  // batch 64, in 128, out 256
  ValueId w = arg(*m, 1);
  ValueId dw = returned(*m, 0);
  EXPECT_EQ(nd.nameOf(w, 0), nd.nameOf(dw, 0));
  EXPECT_EQ(nd.nameOf(w, 1), nd.nameOf(dw, 1));
  // The batch name is reduced in the weight gradient.
  EXPECT_TRUE(nd.names[nd.nameOf(arg(*m, 0), 0)].isReduction());
}

TEST(NamedDimensionsTest, AttentionScoresConflictOnSequence) {
  auto m = parse(R"(
func.func @main(%x: tensor<8x128x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>) -> tensor<8x128x128xf32> {
  %q = stablehlo.dot_general %x, %wq, contracting_dims = [2] x [0] : (tensor<8x128x64xf32>, tensor<64x64xf32>) -> tensor<8x128x64xf32>
  %k = stablehlo.dot_general %x, %wk, contracting_dims = [2] x [0] : (tensor<8x128x64xf32>, tensor<64x64xf32>) -> tensor<8x128x64xf32>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<8x128x64xf32>, tensor<8x128x64xf32>) -> tensor<8x128x128xf32>
  return %s : tensor<8x128x128xf32>
})");
  NamedDimensions nd = analyzeNamedDimensions(*m);
  ASSERT_EQ(nd.conflicts.size(), 1u);
  const DimConflict &c = nd.conflicts[0];
  EXPECT_EQ(c.dimA, 1u);
  EXPECT_EQ(c.dimB, 2u);
  EXPECT_EQ(nd.names[c.name].size, 128);
  EXPECT_EQ(nd.nameOf(arg(*m, 0), 1), c.name);  // the sequence name of x
  EXPECT_NE(c.where, kNone);
}

TEST(NamedDimensionsTest, WhileLoopCarriesWeightName) {
  auto m = parse(R"(
func.func @main(%w: tensor<32x16xf32>, %x: tensor<4x32xf32>) -> tensor<32x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%iw = %w, %i = %c) : tensor<32x16xf32>, tensor<i32>
   cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.dot_general %x, %iw, contracting_dims = [1] x [0] : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %iw, %i2 : tensor<32x16xf32>, tensor<i32>
  }
  return %r#0 : tensor<32x16xf32>
})");
  NamedDimensions nd = analyzeNamedDimensions(*m);
  ValueId w = arg(*m, 0), x = arg(*m, 1);
  OpId loop = m->definingOp(returned(*m, 0));
  ASSERT_TRUE(m->isa(loop, "stablehlo.while"));
  EXPECT_EQ(nd.nameOf(w, 0), nd.nameOf(m->result(loop, 0), 0));
  EXPECT_EQ(nd.nameOf(w, 0), nd.nameOf(x, 1));  // through the dot in the body
  EXPECT_EQ(nd.nameOf(w, 1), nd.nameOf(m->result(loop, 0), 1));
}

TEST(NamedDimensionsTest, FunctionCallLinksArgumentsAndResults) {
  auto m = parse(R"(
func.func @main(%x: tensor<16x8xf32>, %w: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %0 = call @mm(%x, %w) : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}
func.func private @mm(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
})");
  NamedDimensions nd = analyzeNamedDimensions(*m);
  EXPECT_EQ(nd.names.size(), 3u);
  EXPECT_EQ(nd.nameOf(arg(*m, 0), 1), nd.nameOf(arg(*m, 1), 0));   // contracting, across the call
  EXPECT_EQ(nd.nameOf(arg(*m, 0, 0), 0), nd.nameOf(arg(*m, 0, 1), 0));
}

TEST(NamedDimensionsTest, NeedReplicationCutsTheLinkWithoutExcludingTheName) {
  // The sorted dimension must be replicated at the sort: the sort does not
  // link it to its result, but %x dim 1 is still a name (sharding it costs an
  // all-gather before the sort). The batch dimension passes through.
  auto m = parse(R"(
func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = stablehlo.negate %x : tensor<8x16xf32>
  %s = "stablehlo.sort"(%a) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = stablehlo.add %s, %s : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
})");
  NamedDimensions nd = analyzeNamedDimensions(*m);
  ValueId x = arg(*m, 0), r = returned(*m, 0);
  OpId sort = m->definingOp(m->operand(m->definingOp(r), 0));
  ASSERT_TRUE(m->isa(sort, "stablehlo.sort"));
  EXPECT_EQ(nd.nameOf(x, 0), nd.nameOf(r, 0));
  NameId32 sorted = nd.nameOf(x, 1);
  ASSERT_NE(sorted, kNoDimName);
  EXPECT_NE(sorted, nd.nameOf(r, 1));
  EXPECT_EQ(nd.names[sorted].replicatedAt, std::vector<OpId>{sort});
  EXPECT_TRUE(nd.names[nd.nameOf(x, 0)].replicatedAt.empty());
}

TEST(NamedDimensionsTest, UnknownOpsAndSizeOneDimsAreExcluded) {
  auto m = parse(R"(
func.func @main(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = "mystery.op"(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
})");
  Diagnostics diags;
  NamedDimensions nd = analyzeNamedDimensions(*m, {}, &diags);
  EXPECT_EQ(nd.names.size(), 0u);
  EXPECT_EQ(nd.unknownOps.size(), 1u);
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_NE(diags.all()[0].message.find("mystery.op"), std::string::npos);
}

}  // namespace
