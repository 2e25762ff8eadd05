// The -canonicalize driver: dead side-effect-free ops go, ops with side
// effects stay, patterns run to a fixed point, and a canonical module is a
// fixed point of the pass.
#include <gtest/gtest.h>

#include "asm/Printer.h"
#include "canonicalize/Canonicalize.h"
#include "canonicalize/Rewriter.h"
#include "ir/Pass.h"

#include "tests/TestUtil.h"

namespace autopart::canonicalize {
namespace {

using autopart::testing::opsNamed;
using autopart::testing::parse;

std::string canonical(Module &m) {
  Diagnostics diags;
  EXPECT_TRUE(canonicalizeModule(m, diags));
  EXPECT_FALSE(diags.hasErrors());
  return printModule(m);
}

TEST(Canonicalize, RegisteredAsThePassCanonicalize) {
  const PassInfo *pass = lookupPass("canonicalize");
  ASSERT_NE(pass, nullptr);
  std::unique_ptr<Module> m = parse(R"(
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}
)");
  Diagnostics diags;
  ASSERT_TRUE(pass->run(*m, PassOptions{}, diags));
  EXPECT_TRUE(opsNamed(*m, "stablehlo.sine").empty());
}

TEST(Canonicalize, DeadPureChainIsErasedButSideEffectsStay) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8xf32>
  %1 = stablehlo.cosine %0 : tensor<8xf32>
  %2 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %3 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}
)");
  canonical(*m);
  EXPECT_TRUE(opsNamed(*m, "stablehlo.sine").empty());
  EXPECT_TRUE(opsNamed(*m, "stablehlo.cosine").empty());
  EXPECT_EQ(opsNamed(*m, "sdy.all_gather").size(), 1u);
  EXPECT_EQ(opsNamed(*m, "stablehlo.custom_call").size(), 1u);
}

TEST(Canonicalize, ReduceWithPureBodyIsDeadButNotWithACustomCallInside) {
  std::unique_ptr<Module> m = parse(R"(
func.func @f(%arg0: tensor<8xf32>, %init: tensor<f32>) -> tensor<8xf32> {
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %init) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %2 = stablehlo.custom_call @log(%a) {has_side_effect = true} : (tensor<f32>) -> tensor<f32>
      stablehlo.return %b : tensor<f32>
    }
  return %arg0 : tensor<8xf32>
}
)");
  canonical(*m);
  EXPECT_EQ(opsNamed(*m, "stablehlo.reduce").size(), 1u);
  EXPECT_EQ(opsNamed(*m, "stablehlo.custom_call").size(), 1u);
}

TEST(Canonicalize, ChainOfReshardsCollapsesToTheLastTarget) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)");
  std::string out = canonical(*m);
  std::vector<OpId> reshards = opsNamed(*m, "sdy.reshard");
  ASSERT_EQ(reshards.size(), 1u) << out;
  EXPECT_NE(out.find(R"(%0 = sdy.reshard %arg0 <@mesh, [{}, {"a"}]>)"), std::string::npos) << out;
}

TEST(Canonicalize, SecondRunChangesNothing) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{"x", "y"}, {}] %0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<16x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  %3 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  %4 = stablehlo.add %2, %3 : tensor<16x8xf32>
  return %4 : tensor<16x8xf32>
}
)");
  std::string once = canonical(*m);
  EXPECT_NE(once.find(R"(sdy.reduce_scatter [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>)"),
            std::string::npos)
      << once;
  EXPECT_NE(once.find("stablehlo.add %2, %2"), std::string::npos) << once;
  EXPECT_EQ(canonical(*m), once);
}

TEST(Canonicalize, PatternsOfAnOpAreTriedByDecreasingBenefit) {
  const std::vector<Pattern> &patterns = patternsFor("sdy.all_reduce");
  ASSERT_EQ(patterns.size(), 3u);
  EXPECT_EQ(patterns[0].benefit, 2);
  for (size_t i = 1; i < patterns.size(); ++i) EXPECT_GE(patterns[i - 1].benefit, patterns[i].benefit);
  EXPECT_TRUE(patternsFor("stablehlo.add").empty());
}

TEST(Rewriter, UseListsFollowReplacementsAndErasure) {
  std::unique_ptr<Module> m = parse(R"(
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  %1 = stablehlo.multiply %0, %arg1 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)");
  Rewriter rw(*m);
  OpId add = opsNamed(*m, "stablehlo.add")[0];
  OpId mul = opsNamed(*m, "stablehlo.multiply")[0];
  ValueId arg0 = m->operand(add, 0), arg1 = m->operand(mul, 1);
  EXPECT_EQ(rw.users(arg0).size(), 2u);  // one entry per use
  EXPECT_TRUE(rw.hasOneUse(m->result(add)));
  rw.replaceAllUsesWith(m->result(add), arg1);
  EXPECT_TRUE(rw.unused(m->result(add)));
  EXPECT_EQ(m->operand(mul, 0), arg1);
  EXPECT_EQ(rw.users(arg1).size(), 2u);
  rw.eraseOp(add);
  EXPECT_TRUE(rw.unused(arg0));
  EXPECT_TRUE(rw.isErased(add));
  EXPECT_TRUE(rw.changed());
}

}  // namespace
}  // namespace autopart::canonicalize
