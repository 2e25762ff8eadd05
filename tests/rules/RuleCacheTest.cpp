#include <gtest/gtest.h>

#include <optional>

#include "rules/RuleCache.h"

#include "tests/TestUtil.h"

using namespace autopart;

namespace {

using autopart::testing::opsNamed;
using autopart::testing::parse;

class RuleCacheTest : public ::testing::Test {
protected:
  // Parses `program` and asks a fresh cache for the rule of each of its
  // `count` ops named `opName`, in program order. The rules are copied: the
  // rule of an op that is not memoized lives only until the next `get`.
  void cacheRulesOf(const char *program, std::string_view opName, size_t count) {
    m = parse(program);
    ASSERT_TRUE(m);
    ops = opsNamed(*m, opName);
    ASSERT_EQ(ops.size(), count);
    cache.emplace(*m);
    for (OpId op : ops) {
      const OpShardingRule *rule = cache->get(op);
      ASSERT_TRUE(rule);
      rules.push_back(*rule);
    }
  }

  std::unique_ptr<Module> m;
  std::vector<OpId> ops;
  std::optional<RuleCache> cache;
  std::vector<OpShardingRule> rules;
};

TEST_F(RuleCacheTest, RepeatedOpsShareOneRuleEqualToTheRegistry) {
  m = parse(R"(
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.dot_general %1, %w, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %1 : tensor<8x16xf32>
})");
  ops = opsNamed(*m, "stablehlo.dot_general");
  ASSERT_EQ(ops.size(), 3u);
  cache.emplace(*m);
  const OpShardingRule *a = cache->get(ops[0]);
  const OpShardingRule *b = cache->get(ops[1]);
  const OpShardingRule *c = cache->get(ops[2]);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a, b);  // same types and attributes: one memoized rule
  EXPECT_NE(a, c);  // other contracting dims: another rule
  EXPECT_EQ(*a, *getOpShardingRule(*m, ops[0]));
  EXPECT_EQ(*c, *getOpShardingRule(*m, ops[2]));
  EXPECT_EQ(cache->hits(), 1u);
  EXPECT_EQ(cache->misses(), 2u);
}

TEST_F(RuleCacheTest, ConcatenateLooksAtItsOperandsSoIsNotMemoized) {
  // Same types and attributes, but only the first concatenates slices (its
  // concat dimension is a permutation, the other's needs replication).
  ASSERT_NO_FATAL_FAILURE(cacheRulesOf(R"(
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = stablehlo.slice %x [0:4, 0:2] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %b = stablehlo.slice %x [0:4, 4:6] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.concatenate %y, %y, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
})", "stablehlo.concatenate", 2));
  const OpShardingRule &first = rules[0], &second = rules[1];
  EXPECT_EQ(first.permutationFactors, std::vector<int32_t>{1});
  EXPECT_EQ(second.needReplicationFactors, std::vector<int32_t>{1});
  EXPECT_EQ(cache->hits() + cache->misses(), 0u);
}

TEST_F(RuleCacheTest, ScatterReadsItsBodySoIsNotMemoized) {
  // Same types and attributes; the first adds updates (its batch factor is a
  // reduction), the second overwrites (it needs replication).
  ASSERT_NO_FATAL_FAILURE(cacheRulesOf(R"(
func.func @main(%x: tensor<8xf32>, %i: tensor<4x1xi32>, %u: tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<8xf32>
  %1 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
})", "stablehlo.scatter", 2));
  const OpShardingRule &add = rules[0], &set = rules[1];
  EXPECT_EQ(add.reductionFactors.size(), 1u);
  EXPECT_TRUE(set.reductionFactors.empty());
  EXPECT_EQ(add, *getOpShardingRule(*m, ops[0]));
  EXPECT_EQ(set, *getOpShardingRule(*m, ops[1]));
}

}  // namespace
