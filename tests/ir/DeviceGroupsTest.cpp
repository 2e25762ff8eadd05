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

}  // namespace
}  // namespace autopart
