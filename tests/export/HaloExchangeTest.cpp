// The device arithmetic of halo exchange: neighbour pairs along (sub-)axes,
// meshes reversed along axes, and the per-dimension window plan.
#include <gtest/gtest.h>

#include "export/HaloExchange.h"
#include "export/HaloWindowExchange.h"

namespace autopart {
namespace {

TEST(HaloExchangeTest, ShiftPairsMoveAlongTheDimensionAxes) {
  Mesh mesh{{{"a", 2}, {"b", 2}}, {}};
  // One shard further along "a": a=0 devices send to a=1 devices.
  EXPECT_EQ(shiftPairs(mesh, {AxisRef{"a"}}, 1), (std::vector<int64_t>{0, 2, 1, 3}));
  // One shard back along "b".
  EXPECT_EQ(shiftPairs(mesh, {AxisRef{"b"}}, -1), (std::vector<int64_t>{1, 0, 3, 2}));
  // Over "a", "b" together (4 shards), two ahead: shard 0 -> 2, 1 -> 3.
  EXPECT_EQ(shiftPairs(mesh, {AxisRef{"a"}, AxisRef{"b"}}, 2), (std::vector<int64_t>{0, 2, 1, 3}));
}

TEST(HaloExchangeTest, ShiftPairsOnSubAxesAndDeviceIds) {
  // "a":(2)2 of "a"=4 steps devices by 2 (with "b"=2 minor): 0 -> 2, 1 -> 3, 4 -> 6, 5 -> 7.
  Mesh mesh{{{"a", 4}, {"b", 2}}, {}};
  EXPECT_EQ(shiftPairs(mesh, {AxisRef{"a", 2, 2}}, 1), (std::vector<int64_t>{0, 2, 1, 3, 4, 6, 5, 7}));
  // Explicit device ids are sent between, not logical indices.
  Mesh custom{{{"x", 2}}, {1, 0}};
  EXPECT_EQ(shiftPairs(custom, {AxisRef{"x"}}, 1), (std::vector<int64_t>{1, 0}));
}

TEST(HaloExchangeTest, ReversedMeshFlipsOnlyTheGivenAxes) {
  Mesh mesh{{{"a", 2}, {"b", 2}}, {}};
  EXPECT_EQ(reversedMesh(mesh, {AxisRef{"a"}}).deviceIds, (std::vector<int64_t>{2, 3, 0, 1}));
  EXPECT_EQ(reversedMesh(mesh, {AxisRef{"a"}, AxisRef{"b"}}).deviceIds, (std::vector<int64_t>{3, 2, 1, 0}));
  Mesh abc{{{"a", 2}, {"b", 2}, {"c", 4}}, {}};
  // "c":(2)2 flips pairs of devices within each group of 4.
  std::vector<int64_t> ids = reversedMesh(abc, {AxisRef{"c", 2, 2}}).deviceIds;
  EXPECT_EQ(std::vector<int64_t>(ids.begin(), ids.begin() + 4), (std::vector<int64_t>{1, 0, 3, 2}));
}

TEST(HaloExchangeTest, WindowPlanCountsHops) {
  // Slice [0:3] of 8 on 2 shards (sIn 4, sOut 2): shard 1 reads [2, 4) of shard 0.
  DimExchange slice = planDimExchange(2, 4, 2, 2, 0, 1, 8);
  EXPECT_TRUE(slice.needsComm);
  EXPECT_EQ(slice.leftHops, 1);
  EXPECT_EQ(slice.rightHops, 0);
  EXPECT_TRUE(slice.canUseHalo);
  // Pad low=-3 of 4 elements on 4 shards: shard 0 reads element 3, three away,
  // and three plus one shards cover all four: no halo exchange.
  DimExchange far = planDimExchange(4, 1, 2, 2, -3, 1, 4);
  EXPECT_EQ(far.rightHops, 3);
  EXPECT_FALSE(far.canUseHalo);
  // Aligned padding moves nothing.
  EXPECT_FALSE(planDimExchange(2, 4, 8, 8, 4, 1, 8).needsComm);
}

}  // namespace
}  // namespace autopart
