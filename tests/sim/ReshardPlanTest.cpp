// Matmul x(256x1024) . w(1024x1024), f32, on 8 devices: data parallel vs the
// two tensor-parallel layouts, collectives and bytes computed by hand.
#include "sim/ReshardPlan.h"

#include "rules/OpShardingRuleRegistry.h"
#include "sim/CostModel.h"
#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::kDotRule;
using testing::parse;
using testing::roundDevice;

std::string matmul(const std::string &mesh, const std::string &x, const std::string &w, const std::string &r) {
  return "sdy.mesh @mesh = <[" + mesh + "]>\n"
         "func.func @main(%x: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, " + x + ">},\n"
         "    %w: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, " + w + ">}) -> tensor<256x1024xf32> {\n"
         "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, " +
         r + ">]>, sdy.sharding_rule = " + kDotRule + "} : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>\n"
         "  return %0 : tensor<256x1024xf32>\n}\n";
}

OpCost costOfDot(const Module &m) {
  ShardingMap map = ShardingMap::fromModule(m);
  OpId dot = kNone;
  m.walk(m.functions()[0], [&](OpId op) {
    if (m.isa(op, "stablehlo.dot_general")) dot = op;
  });
  std::optional<OpShardingRule> rule = getOpShardingRule(m, dot);
  return costOp(m, dot, &*rule, map, roundDevice());
}

TEST(ReshardPlan, DataParallelMatmulNeedsNoCollective) {
  auto m = parse(matmul("\"data\"=8", "[{\"data\"}, {}]", "[{}, {}]", "[{\"data\"}, {}]"));
  OpCost c = costOfDot(*m);
  EXPECT_TRUE(c.collectives.empty());
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 256 * 1024 * 1024 / 8);
  // Reads x/8 (128 KiB) and w (4 MiB), writes r/8 (128 KiB).
  EXPECT_DOUBLE_EQ(c.bytes, 131072 + 4194304 + 131072);
  // 67.1 MFLOP at 1 TFLOP/s (67 us) outweighs 4.4 MB at 1 TB/s (4.4 us).
  EXPECT_DOUBLE_EQ(c.computeSeconds, 2.0 * 256 * 1024 * 1024 / 8 / 1e12);
}

TEST(ReshardPlan, RowParallelMatmulAllReducesTheResult) {
  auto m = parse(matmul("\"model\"=8", "[{}, {\"model\"}]", "[{\"model\"}, {}]", "[{}, {}]"));
  OpCost c = costOfDot(*m);
  ASSERT_EQ(c.collectives.size(), 1u);
  EXPECT_EQ(c.collectives[0].kind, CollectiveKind::AllReduce);
  EXPECT_EQ(axisListStr(c.collectives[0].axes), "{\"model\"}");
  EXPECT_EQ(c.collectives[0].bytes, 256 * 1024 * 4);  // the full 1 MiB result
  EXPECT_DOUBLE_EQ(c.commSeconds, 2 * 7.0 / 8 * (1 << 20) / 100e9);
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 256 * 1024 * 1024 / 8);
}

TEST(ReshardPlan, ColumnParallelMatmulGathersAReplicatedResult) {
  auto m = parse(matmul("\"model\"=8", "[{}, {}]", "[{}, {\"model\"}]", "[{}, {}]"));
  OpCost c = costOfDot(*m);
  ASSERT_EQ(c.collectives.size(), 1u);
  EXPECT_EQ(c.collectives[0].kind, CollectiveKind::AllGather);
  EXPECT_EQ(c.collectives[0].bytes, 1 << 20);
  EXPECT_DOUBLE_EQ(c.commSeconds, 7.0 / 8 * (1 << 20) / 100e9);
}

TEST(ReshardPlan, ContractingAndResultOnSameAxisIsReduceScatter) {
  auto m = parse(matmul("\"model\"=8", "[{}, {\"model\"}]", "[{\"model\"}, {}]", "[{\"model\"}, {}]"));
  OpCost c = costOfDot(*m);
  ASSERT_EQ(c.collectives.size(), 1u);
  EXPECT_EQ(c.collectives[0].kind, CollectiveKind::ReduceScatter);
  EXPECT_EQ(c.collectives[0].bytes, 1 << 20);
  EXPECT_DOUBLE_EQ(c.commSeconds, 7.0 / 8 * (1 << 20) / 100e9);
}

TEST(ReshardPlan, ReshardDecomposition) {
  Mesh mesh{{{"x", 4}, {"y", 2}}, {}};
  TypeTable types;
  TypeId t = types.tensor({8, 16}, types.scalar("f32"));
  TensorSharding from = TensorSharding::closed("mesh", 2), to = TensorSharding::closed("mesh", 2);
  from.dims[0].axes = {AxisRef{"x"}};
  from.dims[1].axes = {AxisRef{"y"}};
  to.dims[1].axes = {AxisRef{"x"}};
  std::vector<Collective> cs = reshardCollectives(types, t, &from, &to, mesh);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].kind, CollectiveKind::AllGather);  // y gathered: local 2x16
  EXPECT_EQ(cs[0].bytes, 2 * 16 * 4);
  EXPECT_EQ(cs[1].kind, CollectiveKind::AllToAll);  // x moves dim 0 -> 1
  EXPECT_EQ(cs[1].bytes, 2 * 16 * 4);
}

// A reshape whose operand has overflow axes runs on every device: its axes are
// dealt out again so that both factors of the split dimension are fully
// sharded, instead of dropping the axes that overflow the first factor.
TEST(ReshardPlan, OverflowReshapeDealsItsAxesOutAgain) {
  auto m = parse(R"(sdy.mesh @mesh = <["a"=6, "b"=4]>
func.func @main(%x: tensor<24x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<4x6x5xf32> {
  %0 = stablehlo.reshape %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<24x5xf32>) -> tensor<4x6x5xf32>
  return %0 : tensor<4x6x5xf32>
}
)");
  ShardingMap map = ShardingMap::fromModule(*m);
  OpId reshape = kNone;
  m->walk(m->functions()[0], [&](OpId op) {
    if (m->isa(op, "stablehlo.reshape")) reshape = op;
  });
  std::optional<OpShardingRule> rule = getOpShardingRule(*m, reshape);
  ASSERT_TRUE(rule);
  OpReshardPlan plan = planOp(*m, reshape, *rule, map);
  ASSERT_TRUE(plan.applies);
  EXPECT_EQ(plan.iterationShards, 24);
  ASSERT_TRUE(plan.operandTargets[0]);
  EXPECT_EQ(plan.operandTargets[0]->strBody(), R"(<@mesh, [{"a":(1)2, "b":(1)2, "a":(2)3, "b":(2)2}, {}]>)");
  ASSERT_TRUE(plan.resultShardings[0]);
  EXPECT_EQ(plan.resultShardings[0]->strBody(), R"(<@mesh, [{"a":(1)2, "b":(1)2}, {"a":(2)3, "b":(2)2}, {}]>)");
}

}  // namespace
}  // namespace autopart
