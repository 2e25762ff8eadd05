// The basic and aggressive factor strategies on hand-made projections.
#include <gtest/gtest.h>

#include "propagation/FactorPropagation.h"

namespace autopart {
namespace {

AxisRef full(const char *n) { return AxisRef{n, 0, 0}; }

Mesh mesh3() { return Mesh{{{"a", 2}, {"b", 2}, {"c", 2}}, {}}; }

TensorSharding sharding(std::vector<AxisList> dims, bool closed) {
  TensorSharding s = TensorSharding::closed("mesh", dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    s.dims[d].axes = dims[d];
    s.dims[d].closed = closed;
  }
  return s;
}

// Elementwise binary op on rank-1 tensors of size 8: ([i], [i])->([i]).
OpShardingRule elementwise() {
  OpShardingRule r;
  int32_t i = r.addFactor(8);
  r.operands = {{{i}}, {{i}}};
  r.results = {{{i}}};
  return r;
}

// An outer product ([i], [j])->([i, j]) {i=8, j=4}.
OpShardingRule outer() {
  OpShardingRule r;
  int32_t i = r.addFactor(8), j = r.addFactor(4);
  r.operands = {{{i}}, {{j}}};
  r.results = {{{i}, {j}}};
  return r;
}

OpProjection project(const OpShardingRule &rule, const Mesh &m,
                     const std::vector<const TensorSharding *> &operands,
                     const std::vector<const TensorSharding *> &results) {
  OpProjection p;
  for (size_t i = 0; i < operands.size(); ++i)
    p.operands.push_back(projectTensor(operands[i], rule.operands[i], rule, m));
  for (size_t i = 0; i < results.size(); ++i)
    p.results.push_back(projectTensor(results[i], rule.results[i], rule, m));
  return p;
}

TEST(FactorPropagation, BasicKeepsTheCommonMajorPart) {
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  TensorSharding x = sharding({{full("b"), full("a")}}, true);
  TensorSharding y = sharding({{full("b"), full("c")}}, true);
  OpProjection p = project(rule, m, {&x, &y}, {nullptr});
  std::vector<bool> changed = propagateFactors(p, rule, m, {});
  EXPECT_EQ(changed, std::vector<bool>({false, false, true}));
  EXPECT_EQ(p.results[0].factors[0].axes, AxisList({full("b")}));
}

TEST(FactorPropagation, BasicGrowsFromAPrefix) {
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  TensorSharding x = sharding({{full("a")}}, false);
  TensorSharding y = sharding({{full("a"), full("b")}}, true);
  OpProjection p = project(rule, m, {&x, &y}, {nullptr});
  propagateFactors(p, rule, m, {});
  EXPECT_EQ(p.operands[0].factors[0].axes, AxisList({full("a"), full("b")}));
  EXPECT_EQ(p.results[0].factors[0].axes, AxisList({full("a"), full("b")}));
}

TEST(FactorPropagation, ClosedTensorCutsTheAxes) {
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  TensorSharding x = sharding({{full("a"), full("b")}}, true);
  TensorSharding r = sharding({{full("a")}}, true);  // closed result
  OpProjection p = project(rule, m, {&x, nullptr}, {&r});
  AxesPerFactor axes = compatibleShardingAxes(p, rule, m, {});
  EXPECT_EQ(axes[0], AxisList({full("a")}));
}

TEST(FactorPropagation, ForwardLetsOnlyOperandsGrowTheAxes) {
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  TensorSharding r = sharding({{full("a")}}, false);
  OpProjection p = project(rule, m, {nullptr, nullptr}, {&r});
  FactorPropagationParams forward;
  forward.direction = [](size_t) { return PropagationDirection::Forward; };
  EXPECT_TRUE(compatibleShardingAxes(p, rule, m, forward)[0].empty());
  FactorPropagationParams backward;
  backward.direction = [](size_t) { return PropagationDirection::Backward; };
  EXPECT_EQ(compatibleShardingAxes(p, rule, m, backward)[0], AxisList({full("a")}));
}

TEST(FactorPropagation, BasicBlocksAnAxisAnotherFactorUses) {
  Mesh m{{{"x", 2}}, {}};
  OpShardingRule rule = outer();
  TensorSharding t0 = sharding({{full("x")}}, true), t1 = sharding({{full("x")}}, true);
  OpProjection p = project(rule, m, {&t0, &t1}, {nullptr});
  std::vector<bool> changed = propagateFactors(p, rule, m, {});
  EXPECT_FALSE(changed[2]);
}

TEST(FactorPropagation, AggressivePrefersTheLargerSourceTensor) {
  Mesh m{{{"x", 2}}, {}};
  OpShardingRule rule = outer();
  TensorSharding t0 = sharding({{full("x")}}, true), t1 = sharding({{full("x")}}, true);
  FactorPropagationParams params;
  params.strategy = FactorStrategy::Aggressive;
  OpProjection p = project(rule, m, {&t0, &t1}, {nullptr});
  propagateFactors(p, rule, m, params);
  EXPECT_EQ(p.results[0].factors[0].axes, AxisList({full("x")}));
  EXPECT_TRUE(p.results[0].factors[1].axes.empty());
  // The other way round when operand 1 is the larger one.
  OpShardingRule flipped = outer();
  flipped.factorSizes = {4, 8};
  OpProjection q = project(flipped, m, {&t0, &t1}, {nullptr});
  propagateFactors(q, flipped, m, params);
  EXPECT_TRUE(q.results[0].factors[0].axes.empty());
  EXPECT_EQ(q.results[0].factors[1].axes, AxisList({full("x")}));
}

TEST(FactorPropagation, AggressiveIgnoresAFakeConflict) {
  // A closed unsharded operand blocks the basic strategy for every tensor; the
  // aggressive one only for that operand.
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  TensorSharding x = sharding({{full("a")}}, true), closedEmpty = sharding({{}}, true);
  FactorPropagationParams params;
  OpProjection basic = project(rule, m, {&x, &closedEmpty}, {nullptr});
  EXPECT_EQ(propagateFactors(basic, rule, m, params), std::vector<bool>({false, false, false}));
  params.strategy = FactorStrategy::Aggressive;
  OpProjection aggressive = project(rule, m, {&x, &closedEmpty}, {nullptr});
  EXPECT_EQ(propagateFactors(aggressive, rule, m, params), std::vector<bool>({false, false, true}));
  EXPECT_EQ(aggressive.results[0].factors[0].axes, AxisList({full("a")}));
}

TEST(FactorPropagation, AggressiveElementwiseOperandsFollowTheResult) {
  // The result is closed and empty: once the op is marked elementwise the open
  // operand no longer takes "a" sideways from the other operand.
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  TensorSharding x = sharding({{full("a")}}, true), closedEmpty = sharding({{}}, true);
  FactorPropagationParams params;
  params.strategy = FactorStrategy::Aggressive;
  OpProjection sideways = project(rule, m, {&x, nullptr}, {&closedEmpty});
  EXPECT_EQ(propagateFactors(sideways, rule, m, params), std::vector<bool>({false, true, false}));
  params.elementwiseOp = true;
  OpProjection blocked = project(rule, m, {&x, nullptr}, {&closedEmpty});
  EXPECT_EQ(propagateFactors(blocked, rule, m, params), std::vector<bool>({false, false, false}));
}

TEST(FactorPropagation, AggressiveElementwisePrefersTheMostShardedFactor) {
  // ([i, j], [i, j])->([i, j]): operand 0 shards j on "a", operand 1 shards
  // i on "b", "a". Equal sources: the earlier one (j) would win; on an
  // elementwise op i, sharded 4 ways, wins instead.
  Mesh m = mesh3();
  OpShardingRule rule;
  int32_t i = rule.addFactor(8), j = rule.addFactor(8);
  rule.operands = {{{i}, {j}}, {{i}, {j}}};
  rule.results = {{{i}, {j}}};
  TensorSharding x = sharding({{}, {full("a")}}, true), y = sharding({{full("b"), full("a")}, {}}, true);
  FactorPropagationParams params;
  params.strategy = FactorStrategy::Aggressive;
  OpProjection bySource = project(rule, m, {&x, &y}, {nullptr});
  propagateFactors(bySource, rule, m, params);
  EXPECT_EQ(bySource.results[0].factors[1].axes, AxisList({full("a")}));
  EXPECT_EQ(bySource.results[0].factors[0].axes, AxisList({full("b")}));
  params.elementwiseOp = true;
  OpProjection byWays = project(rule, m, {&x, &y}, {nullptr});
  propagateFactors(byWays, rule, m, params);
  EXPECT_EQ(byWays.results[0].factors[0].axes, AxisList({full("b"), full("a")}));
  EXPECT_TRUE(byWays.results[0].factors[1].axes.empty());
}

TEST(FactorPropagation, BlockedFactorPropagatesNothing) {
  Mesh m = mesh3();
  OpShardingRule rule = elementwise();
  rule.blockedPropagationFactors = {0};
  TensorSharding x = sharding({{full("a")}}, true);
  OpProjection p = project(rule, m, {&x, nullptr}, {nullptr});
  EXPECT_TRUE(compatibleShardingAxes(p, rule, m, {})[0].empty());
}

}  // namespace
}  // namespace autopart
