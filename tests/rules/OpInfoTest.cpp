#include <gtest/gtest.h>

#include <set>
#include <string>

#include "rules/OpInfo.h"
#include "rules/OpShardingRuleRegistry.h"

#include "tests/TestUtil.h"

using namespace autopart;

namespace {

using autopart::testing::opsNamed;
using autopart::testing::parse;

TEST(OpInfo, RowsAreUniqueAndConsistent) {
  std::set<std::string_view> seen;
  for (const OpInfo &row : allOpInfos()) {
    EXPECT_TRUE(seen.insert(row.name).second) << "two rows for " << row.name;
    EXPECT_EQ(lookupOpInfo(row.name), &row) << row.name;
    // Ops whose values flow through regions or callees are tied by edges,
    // never by a rule, and cost nothing beyond their bodies.
    if (row.dataFlow != DataFlow::None) {
      EXPECT_EQ(row.category, OpCategory::ControlFlow) << row.name;
      EXPECT_EQ(row.rule, nullptr) << row.name;
      EXPECT_EQ(row.cost, CostKind::Free) << row.name;
    }
    if (row.category == OpCategory::ControlFlow) {
      EXPECT_NE(row.dataFlow, DataFlow::None) << row.name;
    }
    if (row.cost == CostKind::Reshard) {
      EXPECT_EQ(row.flops, FlopModel::None) << row.name;
    }
    if (row.ruleReadsContext) {
      EXPECT_NE(row.rule, nullptr) << row.name;
    }
  }
}

TEST(OpInfo, ChloFallsBackToTheStablehloRowOfTheSameName) {
  ASSERT_NE(lookupOpInfo("chlo.tan"), nullptr);
  EXPECT_EQ(lookupOpInfo("chlo.tan"), lookupOpInfo("stablehlo.tan"));
  // A chlo op with a row of its own keeps it.
  ASSERT_NE(lookupOpInfo("chlo.top_k"), nullptr);
  EXPECT_EQ(lookupOpInfo("chlo.top_k")->name, "chlo.top_k");
  EXPECT_EQ(lookupOpInfo("chlo.no_such_op"), nullptr);
  EXPECT_EQ(lookupOpInfo("mydialect.add"), nullptr);
}

TEST(OpInfo, UnknownOpsGetTheDefaultRowAndNoRule) {
  std::unique_ptr<Module> m = parse(R"(
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "mydialect.frobnicate"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
)");
  ASSERT_TRUE(m);
  OpId op = opsNamed(*m, "mydialect.frobnicate").at(0);
  const OpInfo &info = opInfo(*m, op);
  EXPECT_TRUE(info.name.empty());
  EXPECT_EQ(info.category, OpCategory::Other);
  EXPECT_EQ(info.cost, CostKind::Compute);
  Diagnostics diags;
  EXPECT_FALSE(getOpShardingRule(*m, op, {}, &diags));
  EXPECT_FALSE(isDataFlowOp(*m, op));
}

// Every elementwise row with a rule gives the pointwise rule: one factor per
// result dimension, shared by every operand.
TEST(OpInfo, ElementwiseRowsBuildPointwiseRules) {
  int checked = 0;
  for (const OpInfo &row : allOpInfos()) {
    if (row.category != OpCategory::Elementwise || !row.rule || row.name == "stablehlo.bitcast_convert") continue;
    std::string program = "func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {\n  %0 = \"" +
                          std::string(row.name) +
                          "\"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n"
                          "  return %0 : tensor<4x8xf32>\n}\n";
    std::unique_ptr<Module> m = parse(program);
    ASSERT_TRUE(m) << row.name;
    std::optional<OpShardingRule> rule = getOpShardingRule(*m, opsNamed(*m, row.name).at(0));
    ASSERT_TRUE(rule) << row.name;
    EXPECT_EQ(rule->factorSizes, (std::vector<int64_t>{4, 8})) << row.name;
    ASSERT_EQ(rule->operands.size(), 2u) << row.name;
    EXPECT_EQ(rule->operands[0], rule->results[0]) << row.name;
    EXPECT_EQ(rule->operands[1], rule->results[0]) << row.name;
    ++checked;
  }
  EXPECT_GE(checked, 45);
}

TEST(OpInfo, DataFlowOpsAreTheRowsWithADataFlowKind) {
  std::unique_ptr<Module> m = parse(R"(
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
)");
  ASSERT_TRUE(m);
  EXPECT_TRUE(isDataFlowOp(*m, opsNamed(*m, "stablehlo.optimization_barrier").at(0)));
  EXPECT_FALSE(isDataFlowOp(*m, opsNamed(*m, "stablehlo.abs").at(0)));
  EXPECT_EQ(lookupOpInfo("stablehlo.while")->dataFlow, DataFlow::Loop);
  EXPECT_EQ(lookupOpInfo("stablehlo.case")->dataFlow, DataFlow::Branch);
  EXPECT_EQ(lookupOpInfo("func.call")->dataFlow, DataFlow::Call);
}

}  // namespace
