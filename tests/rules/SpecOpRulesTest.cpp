// Rules of StableHLO ops that Shardy's registry does not cover (it warns and
// keeps them replicated); autopart gives them rules so the whole spec shards.
#include <gtest/gtest.h>

#include "asm/Parser.h"
#include "rules/OpShardingRuleRegistry.h"

using namespace autopart;

namespace {

// The rule of the first op named `name` in a one-function program.
std::string ruleOf(const std::string &body, std::string_view name, Diagnostics *diags = nullptr) {
  ParseError err;
  auto m = parseModule(body, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  if (!m) return "";
  std::string out = "<none>";
  bool found = false;
  m->walk(m->top, [&](OpId op) {
    if (found || !m->isa(op, name)) return;
    found = true;
    std::optional<OpShardingRule> r = getOpShardingRule(*m, op, {}, diags);
    if (r) out = r->str();
  });
  EXPECT_TRUE(found) << name;
  return out;
}

TEST(SpecOpRulesTest, BatchNormTrainingAndGradFollowTheFeatureDimension) {
  const char *text = R"(
func.func @main(%x: tensor<8x4x16xf32>, %s: tensor<16xf32>, %o: tensor<16xf32>) -> tensor<8x4x16xf32> {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-3 : f32, feature_index = 2 : i64} : (tensor<8x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x4x16xf32>, tensor<16xf32>, tensor<16xf32>)
  %1:3 = "stablehlo.batch_norm_grad"(%x, %s, %0#1, %0#2, %0#0) {epsilon = 1.0e-3 : f32, feature_index = 2 : i64} : (tensor<8x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x4x16xf32>) -> (tensor<8x4x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %1#0 : tensor<8x4x16xf32>
})";
  EXPECT_EQ(ruleOf(text, "stablehlo.batch_norm_training"),
            "#sdy.op_sharding_rule<([i, j, k], [k], [k])->([i, j, k], [k], [k]) {i=8, j=4, k=16}>");
  EXPECT_EQ(ruleOf(text, "stablehlo.batch_norm_grad"),
            "#sdy.op_sharding_rule<([i, j, k], [k], [k], [k], [i, j, k])->([i, j, k], [k], [k]) "
            "{i=8, j=4, k=16}>");
}

TEST(SpecOpRulesTest, RngAndStaticDynamicOps) {
  const char *text = R"(
func.func @main(%a: tensor<f32>, %shape: tensor<2xi64>, %q: tensor<8x16xf32>, %s: tensor<16xf32>) -> tensor<16x8xf32> {
  %0 = "stablehlo.rng"(%a, %a, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<8x16xf32>
  %1 = "stablehlo.dynamic_broadcast_in_dim"(%s, %shape) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>, tensor<2xi64>) -> tensor<8x16xf32>
  %2 = "stablehlo.dynamic_reshape"(%q, %shape) : (tensor<8x16xf32>, tensor<2xi64>) -> tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
})";
  // The shape operands get size-1 factors: they are never sharded.
  EXPECT_EQ(ruleOf(text, "stablehlo.rng"),
            "#sdy.op_sharding_rule<([], [], [k])->([i, j]) {i=8, j=16, k=1}>");
  EXPECT_EQ(ruleOf(text, "stablehlo.dynamic_broadcast_in_dim"),
            "#sdy.op_sharding_rule<([j], [k])->([i, j]) {i=8, j=16, k=1}>");
  EXPECT_EQ(ruleOf(text, "stablehlo.dynamic_reshape"),
            "#sdy.op_sharding_rule<([i, jk], [l])->([ij, k]) {i=8, j=2, k=8, l=1}>");
}

TEST(SpecOpRulesTest, ShapeQueriesHaveNoRuleAndNoWarning) {
  Diagnostics diags;
  EXPECT_EQ(ruleOf(R"(
func.func @main(%q: tensor<8x16xf32>) -> tensor<i32> {
  %0 = "stablehlo.get_dimension_size"(%q) {dimension = 1 : i64} : (tensor<8x16xf32>) -> tensor<i32>
  return %0 : tensor<i32>
})",
                   "stablehlo.get_dimension_size", &diags),
            "<none>");
  EXPECT_TRUE(diags.all().empty());
}

}  // namespace
