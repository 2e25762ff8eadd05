// Projection of tensor shardings onto an op's factors and back, with the
// splitting rules Shardy uses (gcd splits, overflow axes, open/closed).
#include <gtest/gtest.h>

#include "ir/FactorProjection.h"

namespace autopart {
namespace {

AxisRef full(const char *n) { return AxisRef{n, 0, 0}; }
AxisRef sub(const char *n, int64_t pre, int64_t size) { return AxisRef{n, pre, size}; }

// reshape 8 -> 2x4 seen from the operand: ([ij])->([i, j]) {i=2, j=4}.
OpShardingRule splitRule(int64_t i, int64_t j) {
  OpShardingRule r;
  int32_t fi = r.addFactor(i), fj = r.addFactor(j);
  r.operands.push_back({{fi, fj}});
  r.results.push_back({{fi}, {fj}});
  return r;
}

TensorSharding sharding(std::vector<AxisList> dims, bool closed = true) {
  TensorSharding s = TensorSharding::closed("mesh", dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    s.dims[d].axes = dims[d];
    s.dims[d].closed = closed;
  }
  return s;
}

TEST(FactorProjection, AxisLargerThanMajorFactorIsSplit) {
  Mesh m{{{"a", 4}, {"b", 2}}, {}};
  OpShardingRule rule = splitRule(2, 4);
  TensorSharding s = sharding({{full("a")}});
  TensorFactorShardings t = projectTensor(&s, rule.operands[0], rule, m);
  EXPECT_EQ(t.factors[0].axes, AxisList({sub("a", 1, 2)}));
  EXPECT_EQ(t.factors[1].axes, AxisList({sub("a", 2, 2)}));
  EXPECT_TRUE(t.factors[1].isMinorMost);
  EXPECT_TRUE(t.factors[0].isClosed);
}

TEST(FactorProjection, GcdSplitsWhenNeitherDividesTheOther) {
  // Factor 6 and axis 4 share 2: the factor takes "a":(1)2; what is left of
  // it (3) and of the axis (2) are coprime, so "a":(2)2 overflows.
  Mesh m{{{"a", 4}}, {}};
  OpShardingRule rule = splitRule(6, 4);
  TensorSharding s = sharding({{full("a")}});
  TensorFactorShardings t = projectTensor(&s, rule.operands[0], rule, m);
  EXPECT_EQ(t.factors[0].axes, AxisList({sub("a", 1, 2)}));
  EXPECT_EQ(t.factors[0].overflow, AxisList({sub("a", 2, 2)}));
  EXPECT_TRUE(t.factors[1].axes.empty());
  EXPECT_TRUE(t.factors[1].isClosed);
}

TEST(FactorProjection, CoprimeAxisOverflowsAndClosesTheNextFactor) {
  Mesh m{{{"a", 3}}, {}};
  OpShardingRule rule = splitRule(2, 4);
  TensorSharding s = sharding({{full("a")}}, /*closed=*/false);
  TensorFactorShardings t = projectTensor(&s, rule.operands[0], rule, m);
  EXPECT_TRUE(t.factors[0].axes.empty());
  EXPECT_EQ(t.factors[0].overflow, AxisList({full("a")}));
  EXPECT_TRUE(t.factors[1].isClosed);
  // Overflow axes come back unchanged.
  TensorSharding back = toTensorSharding(t, rule.operands[0], rule, "mesh", m);
  EXPECT_EQ(back.dims[0].axes, AxisList({full("a")}));
}

TEST(FactorProjection, MissingShardingIsOpenUnlessClosedIfMissing) {
  Mesh m{{{"a", 2}}, {}};
  OpShardingRule rule = splitRule(2, 4);
  EXPECT_FALSE(projectTensor(nullptr, rule.results[0], rule, m).factors[0].isClosed);
  EXPECT_TRUE(projectTensor(nullptr, rule.results[0], rule, m, true).factors[0].isClosed);
}

TEST(FactorProjection, ExpandOnlyAddsMinorAxes) {
  Mesh m{{{"a", 2}, {"b", 2}}, {}};
  OpShardingRule rule = splitRule(2, 4);
  TensorFactorShardings t = projectTensor(nullptr, rule.results[0], rule, m);
  EXPECT_TRUE(t.expandFactor(1, {full("a")}, m));
  EXPECT_TRUE(t.expandFactor(1, {full("a"), full("b")}, m));
  EXPECT_FALSE(t.expandFactor(1, {full("b")}, m));  // not an extension
  TensorSharding s = toTensorSharding(t, rule.results[0], rule, "mesh", m);
  EXPECT_EQ(s.str(), "#sdy.sharding<@mesh, [{?}, {\"a\", \"b\", ?}]>");
}

TEST(FactorProjection, PartlyShardedMajorFactorHidesTheMinorOne) {
  // ([ij]) with i=4 sharded only 2 ways: j's axes would need a strided view.
  Mesh m{{{"a", 2}, {"b", 2}}, {}};
  OpShardingRule rule = splitRule(4, 4);
  TensorFactorShardings t = projectTensor(nullptr, rule.operands[0], rule, m);
  t.factors[0].axes = {full("a")};
  t.factors[1].axes = {full("b")};
  TensorSharding s = toTensorSharding(t, rule.operands[0], rule, "mesh", m);
  EXPECT_EQ(s.dims[0].axes, AxisList({full("a")}));
}

}  // namespace
}  // namespace autopart
