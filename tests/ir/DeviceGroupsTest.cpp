// Device groups of a collective over mesh axes.
#include "ir/DeviceGroups.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

TEST(DeviceGroupsTest, DevicesDifferingOnlyInTheAxesGoTogether) {
  Mesh mesh{{{"x", 2}, {"y", 2}}, {}};
  EXPECT_EQ(deviceGroups(mesh, {AxisRef{"y"}}), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(deviceGroups(mesh, {AxisRef{"x"}}), (Groups{{0, 2}, {1, 3}}));
  // Ordered by the coordinates of the axes in the order listed.
  EXPECT_EQ(deviceGroups(mesh, {AxisRef{"y"}, AxisRef{"x"}}), (Groups{{0, 2, 1, 3}}));
}

TEST(DeviceGroupsTest, DeviceIdsAndTheReplicaGroupsAttribute) {
  Mesh mesh{{{"x", 2}}, {1, 0}};
  Groups groups = deviceGroups(mesh, {AxisRef{"x"}});
  EXPECT_EQ(groups, (Groups{{1, 0}}));
  std::unique_ptr<Module> m = testing::parse("func.func @f() {\n  return\n}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->attrs.str(deviceGroupsAttr(*m, groups)), "dense<[[1, 0]]> : tensor<1x2xi64>");
}

// Shardy writes replica groups as text; XLA's printer may write any dense
// tensor in hex (little-endian), and ragged groups are padded with -1.
TEST(DeviceGroupsTest, DenseIntRowsReadsTextHexAndPadding) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0, 4], [1, 5]]> : tensor<2x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.all_reduce"(%a) <{replica_groups = dense<"0x0000000001000000020000000300000004000000FFFFFFFF"> : tensor<2x3xi32>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.collective_permute"(%a) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
)");
  ASSERT_TRUE(m);
  std::vector<OpId> ops;
  m->walk(m->functions()[0], [&](OpId op) {
    if (m->opName(op).starts_with("stablehlo.all_reduce") || m->isa(op, "stablehlo.collective_permute"))
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(denseIntRows(*m, ops[0], "replica_groups"), (Groups{{0, 4}, {1, 5}}));
  EXPECT_EQ(denseIntRows(*m, ops[1], "replica_groups"), (Groups{{0, 1, 2}, {3, 4}}));
  EXPECT_EQ(denseIntRows(*m, ops[2], "source_target_pairs"), (Groups{{0, 1}, {1, 0}}));
  EXPECT_EQ(denseIntRows(*m, ops[2], "replica_groups"), Groups{});
}

TEST(DeviceGroupsTest, CoordinatesAndPositions) {
  Mesh mesh{{{"x", 2}, {"y", 4}}, {}};
  EXPECT_EQ(meshCoordinates(mesh, 6), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(devicePosition(mesh, 6), 6);
  EXPECT_EQ(devicePosition(mesh, 8), -1);
  Mesh listed{{{"x", 2}}, {1, 0}};
  EXPECT_EQ(devicePosition(listed, 1), 0);
  EXPECT_EQ(devicePosition(listed, 2), -1);
}

TEST(DeviceGroupsTest, AxesOfGroupsInvertsDeviceGroups) {
  Mesh mesh{{{"x", 2}, {"y", 4}}, {}};
  using Axes = std::vector<AxisRef>;
  EXPECT_EQ(axesOfGroups(mesh, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}), (Axes{AxisRef{"x"}}));
  // Order inside a group and of the groups does not matter.
  EXPECT_EQ(axesOfGroups(mesh, {{7, 6, 5, 4}, {0, 1, 2, 3}}), (Axes{AxisRef{"y"}}));
  EXPECT_EQ(axesOfGroups(mesh, {{0, 1, 2, 3, 4, 5, 6, 7}}), (Axes{AxisRef{"x"}, AxisRef{"y"}}));
  // Half of y, and ragged groups: no set of whole axes.
  EXPECT_EQ(axesOfGroups(mesh, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}), std::nullopt);
  EXPECT_EQ(axesOfGroups(mesh, {{0, 1, 2}, {3, 4, 5, 6, 7}}), std::nullopt);
  // Device ids in another order name other devices.
  Mesh permuted{{{"x", 2}}, {1, 0}};
  EXPECT_EQ(axesOfGroups(permuted, {{0, 1}}), (Axes{AxisRef{"x"}}));
}

}  // namespace
}  // namespace autopart
