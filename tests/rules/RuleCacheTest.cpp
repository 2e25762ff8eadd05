#include <gtest/gtest.h>

#include "ir/Parser.h"
#include "rules/RuleCache.h"

using namespace autopart;

namespace {

std::unique_ptr<Module> parse(const std::string &text) {
  ParseError err;
  auto m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

std::vector<OpId> opsNamed(const Module &m, std::string_view name) {
  std::vector<OpId> out;
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, name)) out.push_back(op);
  });
  return out;
}

TEST(RuleCacheTest, RepeatedOpsShareOneRuleEqualToTheRegistry) {
  auto m = parse(R"(
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.dot_general %1, %w, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %1 : tensor<8x16xf32>
})");
  std::vector<OpId> dots = opsNamed(*m, "stablehlo.dot_general");
  ASSERT_EQ(dots.size(), 3u);
  RuleCache cache(*m);
  const OpShardingRule *a = cache.get(dots[0]);
  const OpShardingRule *b = cache.get(dots[1]);
  const OpShardingRule *c = cache.get(dots[2]);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a, b);  // same types and attributes: one memoized rule
  EXPECT_NE(a, c);  // other contracting dims: another rule
  EXPECT_EQ(*a, *getOpShardingRule(*m, dots[0]));
  EXPECT_EQ(*c, *getOpShardingRule(*m, dots[2]));
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 2u);
}

TEST(RuleCacheTest, ConcatenateLooksAtItsOperandsSoIsNotMemoized) {
  // Same types and attributes, but only the first concatenates slices (its
  // concat dimension is a permutation, the other's needs replication).
  auto m = parse(R"(
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = stablehlo.slice %x [0:4, 0:2] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %b = stablehlo.slice %x [0:4, 4:6] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.concatenate %y, %y, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
})");
  std::vector<OpId> concats = opsNamed(*m, "stablehlo.concatenate");
  ASSERT_EQ(concats.size(), 2u);
  RuleCache cache(*m);
  OpShardingRule first = *cache.get(concats[0]);
  OpShardingRule second = *cache.get(concats[1]);
  EXPECT_EQ(first.permutationFactors, std::vector<int32_t>{1});
  EXPECT_EQ(second.needReplicationFactors, std::vector<int32_t>{1});
  EXPECT_EQ(cache.hits() + cache.misses(), 0u);
}

TEST(RuleCacheTest, ScatterReadsItsBodySoIsNotMemoized) {
  // Same types and attributes; the first adds updates (its batch factor is a
  // reduction), the second overwrites (it needs replication).
  auto m = parse(R"(
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
})");
  std::vector<OpId> scatters = opsNamed(*m, "stablehlo.scatter");
  ASSERT_EQ(scatters.size(), 2u);
  RuleCache cache(*m);
  OpShardingRule add = *cache.get(scatters[0]);
  OpShardingRule set = *cache.get(scatters[1]);
  EXPECT_EQ(add.reductionFactors.size(), 1u);
  EXPECT_TRUE(set.reductionFactors.empty());
  EXPECT_EQ(add, *getOpShardingRule(*m, scatters[0]));
  EXPECT_EQ(set, *getOpShardingRule(*m, scatters[1]));
}

}  // namespace
