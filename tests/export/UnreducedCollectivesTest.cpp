// The steps that make a value keep more unreduced axes: which axes become
// unreduced from replication, which from a dimension's minor axes, and when
// a reshard has to come first.
#include <gtest/gtest.h>

#include "export/UnreducedCollectives.h"

namespace autopart {
namespace {

Mesh mesh(std::vector<MeshAxis> axes) { return Mesh{std::move(axes), {}}; }

AxisRef axis(std::string name, int64_t pre = 0, int64_t size = 0) { return AxisRef{std::move(name), pre, size}; }

TensorSharding sharding(std::vector<AxisList> dims, AxisList unreduced = {}) {
  TensorSharding s = TensorSharding::closed("mesh", dims.size());
  for (size_t d = 0; d < dims.size(); ++d) s.dims[d].axes = dims[d];
  s.unreduced = std::move(unreduced);
  return s;
}

TEST(PlanToUnreduced, NothingWhenNoAxisIsAdded) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  EXPECT_FALSE(planToUnreduced(sharding({{axis("x")}}, {axis("y")}), sharding({{}}, {axis("y")}), m));
}

TEST(PlanToUnreduced, ReplicatedAxisNeedsNoReshard) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  auto steps = planToUnreduced(sharding({{axis("x")}}), sharding({{axis("x")}}, {axis("y")}), m);
  ASSERT_TRUE(steps);
  EXPECT_FALSE(steps->reshard);
  EXPECT_EQ(steps->replicatedToUnreduced, (AxisList{axis("y")}));
  EXPECT_FALSE(steps->anySharded);
  EXPECT_EQ(steps->afterReplicated.unreduced, (AxisList{axis("y")}));
}

TEST(PlanToUnreduced, MinorAxesOfADimensionBecomeUnreducedWhereTheyAre) {
  Mesh m = mesh({{"x", 2}, {"y", 2}, {"z", 4}});
  // [{"x", "z", "y"}] -> [{"x"}] unreduced {y, z}: z and y leave dimension 0.
  auto steps = planToUnreduced(sharding({{axis("x"), axis("z"), axis("y")}}),
                               sharding({{axis("x")}}, {axis("y"), axis("z")}), m);
  ASSERT_TRUE(steps);
  EXPECT_FALSE(steps->reshard);
  EXPECT_TRUE(steps->replicatedToUnreduced.empty());
  ASSERT_TRUE(steps->anySharded);
  EXPECT_EQ(steps->shardedToUnreduced[0], (AxisList{axis("z"), axis("y")}));
}

TEST(PlanToUnreduced, MinorPartOfASubAxis) {
  Mesh m = mesh({{"x", 2}, {"z", 4}});
  // [{"z"}] -> [{"z":(1)2}] unreduced {"z":(2)2}.
  auto steps = planToUnreduced(sharding({{axis("z")}}), sharding({{axis("z", 1, 2)}}, {axis("z", 2, 2)}), m);
  ASSERT_TRUE(steps);
  EXPECT_FALSE(steps->reshard);
  EXPECT_EQ(steps->shardedToUnreduced[0], (AxisList{axis("z", 2, 2)}));
}

TEST(PlanToUnreduced, OtherChangesAreReshardedFirst) {
  Mesh m = mesh({{"x", 2}, {"y", 2}, {"z", 4}});
  // [{"y"}, {"z"}] -> [{}, {}] unreduced {x, y}: z is gathered, y stays
  // sharded until it becomes unreduced, x comes from replication.
  auto steps = planToUnreduced(sharding({{axis("y")}, {axis("z")}}), sharding({{}, {}}, {axis("x"), axis("y")}), m);
  ASSERT_TRUE(steps);
  ASSERT_TRUE(steps->reshard);
  EXPECT_EQ(steps->reshard->dims[0].axes, (AxisList{axis("y")}));
  EXPECT_TRUE(steps->reshard->dims[1].axes.empty());
  EXPECT_EQ(steps->replicatedToUnreduced, (AxisList{axis("x")}));
  EXPECT_EQ(steps->shardedToUnreduced[0], (AxisList{axis("y")}));
  EXPECT_TRUE(steps->shardedToUnreduced[1].empty());
}

TEST(PlanToUnreduced, ADimensionShardedDifferentlyIsReshardedAndItsAxisReplicated) {
  Mesh m = mesh({{"x", 2}, {"y", 2}, {"z", 4}});
  auto steps = planToUnreduced(sharding({{axis("x")}, {}}), sharding({{axis("z")}, {}}, {axis("x"), axis("y")}), m);
  ASSERT_TRUE(steps);
  ASSERT_TRUE(steps->reshard);
  EXPECT_EQ(steps->reshard->dims[0].axes, (AxisList{axis("z")}));
  EXPECT_EQ(steps->replicatedToUnreduced, (AxisList{axis("x"), axis("y")}));
  EXPECT_FALSE(steps->anySharded);
}

}  // namespace
}  // namespace autopart
