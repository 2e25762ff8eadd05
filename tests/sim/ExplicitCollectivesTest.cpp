// Collectives a program spells out, priced on the mesh axes their device
// groups span (sim/ExplicitCollectives.h).
#include "sim/ExplicitCollectives.h"

#include "sim/CollectiveCost.h"
#include "sim/CostModel.h"
#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

// A torch-xla style body on ["x"=2, "y"=4]: every device holds 8x16 bf16
// (256 B); device d sits at x = d / 4, y = d % 4.
constexpr const char *kManual = R"(sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<16x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x64xbf16> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%a: tensor<8x16xbf16>) {
    %r = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.add %p, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %g = "stablehlo.all_gather"(%r) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x16xbf16>) -> tensor<8x64xbf16>
    %t = "stablehlo.reduce_scatter"(%g) <{scatter_dimension = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.add %p, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<8x64xbf16>) -> tensor<8x16xbf16>
    %h = "stablehlo.all_reduce"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.add %p, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %c = "stablehlo.collective_permute"(%h) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, source_target_pairs = dense<[[0, 4], [4, 0], [1, 5], [5, 1]]> : tensor<4x2xi64>}> : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %n = "stablehlo.collective_permute"(%c) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
    sdy.return %n : tensor<8x16xbf16>
  } : (tensor<16x64xbf16>) -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}
)";

std::vector<OpId> collectiveOps(const Module &m) {
  std::vector<OpId> ops;
  m.walk(m.functions()[0], [&](OpId op) {
    std::string_view n = m.opName(op);
    if (n == "stablehlo.all_reduce" || n == "stablehlo.all_gather" || n == "stablehlo.reduce_scatter" ||
        n == "stablehlo.collective_permute")
      ops.push_back(op);
  });
  return ops;
}

TEST(ExplicitCollectivesTest, GroupsMapToTheAxesTheySpan) {
  std::unique_ptr<Module> m = testing::parse(kManual);
  ASSERT_TRUE(m);
  ShardingMap map = ShardingMap::fromModule(*m);
  std::vector<OpId> ops = collectiveOps(*m);
  ASSERT_EQ(ops.size(), 6u);

  std::vector<ExplicitCollective> reduce = explicitCollectives(*m, ops[0], map);
  ASSERT_EQ(reduce.size(), 1u);
  EXPECT_EQ(reduce[0].collective.kind, CollectiveKind::AllReduce);
  EXPECT_EQ(reduce[0].collective.axes, (AxisList{AxisRef{"x"}}));
  EXPECT_EQ(reduce[0].collective.bytes, 8 * 16 * 2);
  EXPECT_EQ(reduce[0].mesh.str(), R"(<["x"=2, "y"=4]>)");

  // An all-gather is priced on its gathered result, a reduce-scatter on its
  // unscattered operand.
  std::vector<ExplicitCollective> gather = explicitCollectives(*m, ops[1], map);
  ASSERT_EQ(gather.size(), 1u);
  EXPECT_EQ(gather[0].collective.kind, CollectiveKind::AllGather);
  EXPECT_EQ(gather[0].collective.axes, (AxisList{AxisRef{"y"}}));
  EXPECT_EQ(gather[0].collective.bytes, 8 * 64 * 2);
  std::vector<ExplicitCollective> scatter = explicitCollectives(*m, ops[2], map);
  ASSERT_EQ(scatter.size(), 1u);
  EXPECT_EQ(scatter[0].collective.kind, CollectiveKind::ReduceScatter);
  EXPECT_EQ(scatter[0].collective.bytes, 8 * 64 * 2);

  // Pairs of devices along half of y are no set of whole axes: a stand-in
  // axis of the groups' size.
  std::vector<ExplicitCollective> half = explicitCollectives(*m, ops[3], map);
  ASSERT_EQ(half.size(), 1u);
  EXPECT_EQ(half[0].collective.axes, (AxisList{AxisRef{"groups of 2"}}));
  EXPECT_EQ(half[0].mesh.str(), R"(<["groups of 2"=2]>)");

  // A permute spans the axes its pairs differ on; one that moves nothing is free.
  std::vector<ExplicitCollective> permute = explicitCollectives(*m, ops[4], map);
  ASSERT_EQ(permute.size(), 1u);
  EXPECT_EQ(permute[0].collective.kind, CollectiveKind::CollectivePermute);
  EXPECT_EQ(permute[0].collective.axes, (AxisList{AxisRef{"x"}}));
  EXPECT_TRUE(explicitCollectives(*m, ops[5], map).empty());
}

// The op costs its collectives' time on the axes' links and no kernel.
TEST(ExplicitCollectivesTest, CostIsTheCollectivesTimeOnTheirLinks) {
  std::unique_ptr<Module> m = testing::parse(kManual);
  ASSERT_TRUE(m);
  ShardingMap map = ShardingMap::fromModule(*m);
  DeviceParams device = testing::roundDevice();
  device.axisLinks["x"] = {10e9, 1e-6};
  OpId op = collectiveOps(*m)[0];
  OpCost cost = costOp(*m, op, nullptr, map, device);
  EXPECT_EQ(cost.computeSeconds, 0);
  EXPECT_EQ(cost.flops, 0);
  ASSERT_EQ(cost.collectives.size(), 1u);
  const Mesh &mesh = *map.mesh("mesh");
  // All-reduce of 256 B over x=2 at 10 GB/s, α = 1 µs: the smaller of a ring
  // 2·(α + 1/2·256 B / bw) and per-axis stages (the same here).
  double expected = collectiveSeconds(Collective{CollectiveKind::AllReduce, {AxisRef{"x"}}, 256}, mesh, device);
  EXPECT_DOUBLE_EQ(cost.commSeconds, expected);
  EXPECT_NEAR(expected, 2 * (1e-6 + 128 / 10e9), 1e-12);
}

// Without a mesh the devices' places are unknown: the groups' size on the
// default link.
TEST(ExplicitCollectivesTest, NoMeshUsesTheGroupSize) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%a: tensor<256xf32>) -> tensor<256xf32> {
  %r = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
)");
  ASSERT_TRUE(m);
  ShardingMap map = ShardingMap::fromModule(*m);
  std::vector<ExplicitCollective> c = explicitCollectives(*m, collectiveOps(*m)[0], map);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].collective.axes, (AxisList{AxisRef{"groups of 4"}}));
  EXPECT_EQ(c[0].collective.bytes, 1024);
  EXPECT_EQ(c[0].mesh.numDevices(), 4);
}

// A broadcast streams its buffer along a chain through each group:
// (n-1)·α + B/bw, here over y=4 at 10 GB/s with α = 1 µs on 1 KiB.
TEST(ExplicitCollectivesTest, BroadcastIsAPipelinedChainThroughTheGroup) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x64xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%a: tensor<8x16xf32>) {
    %b = "stablehlo.collective_broadcast"(%a) <{replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    sdy.return %b : tensor<8x16xf32>
  } : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
)");
  ASSERT_TRUE(m);
  ShardingMap map = ShardingMap::fromModule(*m);
  OpId op = kNone;
  m->walk(m->functions()[0], [&](OpId o) {
    if (m->isa(o, "stablehlo.collective_broadcast")) op = o;
  });
  std::vector<ExplicitCollective> c = explicitCollectives(*m, op, map);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].collective.kind, CollectiveKind::Broadcast);
  EXPECT_EQ(c[0].collective.axes, (AxisList{AxisRef{"y"}}));
  EXPECT_EQ(c[0].collective.bytes, 8 * 16 * 4);
  DeviceParams device = testing::roundDevice();
  device.defaultLink = {10e9, 1e-6};
  EXPECT_NEAR(costOp(*m, op, nullptr, map, device).commSeconds, 3 * 1e-6 + 512 / 10e9, 1e-15);
  EXPECT_STREQ(collectiveName(CollectiveKind::Broadcast), "collective-broadcast");
}

// Shardy's own collectives name their axes: an all-reduce on the result's
// local buffer, a reduce-scatter on the operand's unscattered one.
TEST(ExplicitCollectivesTest, SdyAllReduceAndReduceScatterNameTheirAxes) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<64x256xf32> {
  %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<64x256xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<64x256xf32>
  return %1 : tensor<64x256xf32>
}
)");
  ASSERT_TRUE(m);
  ShardingMap map = ShardingMap::fromModule(*m);
  std::vector<OpId> ops;
  m->walk(m->functions()[0], [&](OpId op) {
    if (m->opName(op).starts_with("sdy.")) ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 2u);
  std::vector<ExplicitCollective> scatter = explicitCollectives(*m, ops[0], map);
  ASSERT_EQ(scatter.size(), 1u);
  EXPECT_EQ(scatter[0].collective.kind, CollectiveKind::ReduceScatter);
  EXPECT_EQ(scatter[0].collective.axes, (AxisList{AxisRef{"y"}}));
  EXPECT_EQ(scatter[0].collective.bytes, 32 * 256 * 4);  // the operand's 32x256 slice
  std::vector<ExplicitCollective> reduce = explicitCollectives(*m, ops[1], map);
  ASSERT_EQ(reduce.size(), 1u);
  EXPECT_EQ(reduce[0].collective.kind, CollectiveKind::AllReduce);
  EXPECT_EQ(reduce[0].collective.axes, (AxisList{AxisRef{"x"}}));
  EXPECT_EQ(reduce[0].collective.bytes, 64 * 64 * 4);  // the result's 64x64 slice
  // Neither is a kernel.
  OpCost cost = costOp(*m, ops[0], nullptr, map, testing::roundDevice());
  EXPECT_EQ(cost.computeSeconds, 0);
  EXPECT_EQ(cost.collectives.size(), 1u);
}

}  // namespace
}  // namespace autopart
