// The sharding-rule verifier on one op each: a rule is checked against the
// operand and result types of the op it is attached to, with Shardy's
// messages.
#include "verify/Verifier.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

// The errors of verifying a function whose body is `op` (an op producing
// %0 from %arg0 : tensor<2x4xf32>), "" when it verifies.
std::string verifyOp(const std::string &op, const std::string &argType = "tensor<2x4xf32>",
                     const std::string &resultType = "tensor<2x4xf32>") {
  std::string text = "func.func @f(%arg0: " + argType + ") -> " + resultType + " {\n  " + op +
                     "\n  return %0 : " + resultType + "\n}";
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return "<parse error>";
  Diagnostics diags;
  bool ok = verifyModule(*m, diags);
  EXPECT_EQ(ok, !diags.hasErrors());
  return diags.errorText();
}

TEST(ShardingRuleVerifierTest, AcceptsRuleMatchingItsOp) {
  EXPECT_EQ(verifyOp("%0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=4}>} : "
                     "tensor<2x4xf32>"),
            "");
  // Several factors in one dimension, a reduction and a blocked factor.
  EXPECT_EQ(verifyOp("%0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, jk])->([i]) {i=2, j=2, k=2} reduction={j, k} "
                     "blocked_propagation={i}, custom>} : (tensor<2x4xf32>) -> tensor<2xf32>",
                     "tensor<2x4xf32>", "tensor<2xf32>"),
            "");
}

TEST(ShardingRuleVerifierTest, NamesTheValueByIndexOnlyAmongSeveral) {
  EXPECT_EQ(verifyOp("%0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, j], [i])->([i, j]) {i=2, j=4}>} : "
                     "tensor<2x4xf32>"),
            "t.mlir:2:8: error: 'stablehlo.add' op operand 1 - mapping rank must match: 1 != 2");
  EXPECT_EQ(verifyOp("%0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, j], [i, j])->([j, i]) {i=2, j=4}>} : "
                     "tensor<2x4xf32>"),
            "");
  EXPECT_EQ(verifyOp("%0 = stablehlo.reshape %arg0 {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, i])->([ij]) {i=2, j=4}>} : "
                     "(tensor<2x4xf32>) -> tensor<8xf32>",
                     "tensor<2x4xf32>", "tensor<8xf32>"),
            "t.mlir:2:8: error: 'stablehlo.reshape' op operand - cannot reuse factors for the "
            "same tensor value");
}

TEST(ShardingRuleVerifierTest, RejectsMappingCountAndShape) {
  EXPECT_EQ(verifyOp("%0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4}>} : tensor<2x4xf32>"),
            "t.mlir:2:8: error: 'stablehlo.add' op number of operands and mappings must match: "
            "2 != 1");
  EXPECT_EQ(verifyOp("%0 = stablehlo.abs %arg0 {sdy.sharding_rule = "
                     "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4}>} : tensor<?x4xf32>",
                     "tensor<?x4xf32>", "tensor<?x4xf32>"),
            "t.mlir:2:8: error: 'stablehlo.abs' op operand - expected a ranked tensor with a "
            "static shape. type: tensor<?x4xf32>");
}

TEST(ShardingRuleVerifierTest, RejectsFactorMisuse) {
  auto add = [](const std::string &rule) {
    return verifyOp("%0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<" +
                    rule + ">} : tensor<2x4xf32>");
  };
  EXPECT_EQ(add("([i, j], [i, j])->([i, j]) {i=2, j=4, k=3}"),
            "t.mlir:2:8: error: 'stablehlo.add' op has factor k=3 that isn't used in operand and "
            "result mappings");
  EXPECT_EQ(add("([i, jk], [i, jk])->([i, jk]) {i=2, j=4, k=1}"),
            "t.mlir:2:8: error: 'stablehlo.add' op operand 0 - dim mapping can't have a factor "
            "of size 1 if there are multiple factors");
  EXPECT_EQ(add("([i, l], [i, j])->([i, j]) {i=2, j=4}"),
            "t.mlir:2:8: error: 'stablehlo.add' op operand 0 - expecting factor indices to be "
            "within 0<=...<num_factors; received: 3, num_factors: 2");
  EXPECT_EQ(add("([i, ], [i, j])->([i, j]) {i=2, j=4}"),
            "t.mlir:2:8: error: 'stablehlo.add' op operand 0 - dim mapping must have at least "
            "one factor");
}

TEST(ShardingRuleVerifierTest, RejectsBadSpecialFactors) {
  auto add = [](const std::string &special) {
    return verifyOp("%0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = "
                    "#sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=2, j=4, k=4, l=4} " +
                    special + ">} : tensor<2x4xf32>");
  };
  EXPECT_EQ(add("permutation={k, j}"),
            "t.mlir:2:8: error: 'stablehlo.add' op indices of special factors must be sorted");
  EXPECT_EQ(add("reduction={j, j}"),
            "t.mlir:2:8: error: 'stablehlo.add' op indices of special factors must be unique");
  EXPECT_EQ(add("blocked_propagation={m}"),
            "t.mlir:2:8: error: 'stablehlo.add' op index must be less than 4, got: 4");
  EXPECT_EQ(add("reduction={j} permutation={j}"),
            "t.mlir:2:8: error: 'stablehlo.add' op a factor can only be in one of the reduction, "
            "need replication, or permutation factor sets");
  EXPECT_EQ(add("reduction={l}"),
            "t.mlir:2:8: error: 'stablehlo.add' op reduction factor cannot be in result mappings");
  // Blocking is orthogonal to the kinds: a blocked factor may also be one.
  EXPECT_EQ(add("reduction={j} need_replication={k} blocked_propagation={j, k}"), "");
}

TEST(ShardingRuleVerifierTest, RejectsRuleOfAnotherType) {
  EXPECT_EQ(verifyOp("%0 = stablehlo.abs %arg0 {sdy.sharding_rule = 1 : i64} : tensor<2x4xf32>"),
            "t.mlir:2:8: error: 'stablehlo.abs' op should have a sharding rule attribute of type "
            "OpShardingRuleAttr for attr named 'sdy.sharding_rule'");
}

}  // namespace
}  // namespace autopart
