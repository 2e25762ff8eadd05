// Reshape groups and the "does every device already hold its elements" test
// that -sdy-resolve-permutation-factors applies to sharded reshapes.
#include <gtest/gtest.h>

#include "export/ReshapeGroups.h"

namespace autopart {
namespace {

AxisRef full(const std::string &name) { return AxisRef{name}; }
AxisRef sub(const std::string &name, int64_t pre, int64_t size) { return AxisRef{name, pre, size}; }

TensorSharding sharding(std::vector<std::vector<AxisRef>> dims) {
  TensorSharding s = TensorSharding::closed("mesh", dims.size());
  for (size_t d = 0; d < dims.size(); ++d) s.dims[d].axes = std::move(dims[d]);
  return s;
}

TEST(ReshapeGroupsTest, SplitsIntoShortestEqualProducts) {
  std::vector<ReshapeGroup> g = reshapeGroups({12, 24}, {4, 3, 4, 6});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].inBegin, 0);
  EXPECT_EQ(g[0].inEnd, 1);
  EXPECT_EQ(g[0].outBegin, 0);
  EXPECT_EQ(g[0].outEnd, 2);
  EXPECT_EQ(g[1].outBegin, 2);
  EXPECT_EQ(g[1].outEnd, 4);
  EXPECT_FALSE(g[0].isPassThrough());
}

TEST(ReshapeGroupsTest, SizeOneDimensionsKeepAGroupPassThrough) {
  std::vector<ReshapeGroup> g = reshapeGroups({6}, {1, 6});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].outEnd, 2);
  EXPECT_TRUE(g[0].isPassThrough());
  // 2x3x5 -> 30 is one group of three non-trivial dimensions.
  std::vector<ReshapeGroup> all = reshapeGroups({2, 3, 5}, {30});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_FALSE(all[0].isPassThrough());
}

TEST(ReshapeGroupsTest, IndivisibleDimensionsOnEitherSide) {
  Mesh mesh{{{"a", 4}}, {}};
  ReshapeGroup g = reshapeGroups({6, 2}, {3, 2, 2})[0];
  EXPECT_TRUE(groupHasIndivisibleDim(g, {6, 2}, sharding({{full("a")}, {}}), {3, 2, 2},
                                     sharding({{}, {}, {}}), mesh));
  ReshapeGroup even = reshapeGroups({8, 2}, {4, 2, 2})[0];
  EXPECT_FALSE(groupHasIndivisibleDim(even, {8, 2}, sharding({{full("a")}, {}}), {4, 2, 2},
                                      sharding({{full("a")}, {}, {}}), mesh));
}

TEST(ReshapeGroupsTest, PaddedTilesThatLineUpAreLocal) {
  Mesh mesh{{{"a", 4}}, {}};
  // "a" steps ceil(6/4)*2 = 4 elements on both sides.
  EXPECT_TRUE(shardingLocalAcrossReshape({6, 2}, sharding({{full("a")}, {}}), {3, 2, 2},
                                         sharding({{full("a")}, {}, {}}), mesh));
  // 4 elements in, ceil(4/4)*3 = 3 out.
  EXPECT_FALSE(shardingLocalAcrossReshape({6, 2}, sharding({{full("a")}, {}}), {4, 3},
                                          sharding({{full("a")}, {}}), mesh));
}

TEST(ReshapeGroupsTest, SubAxesAreComparedPieceByPiece) {
  Mesh mesh{{{"a", 4}}, {}};
  // 4x4 -> 2x2x4 with "a" split as (1)2 and (2)2: steps 8 and 4 on both sides.
  EXPECT_TRUE(shardingLocalAcrossReshape({4, 4}, sharding({{full("a")}, {}}), {2, 2, 4},
                                         sharding({{sub("a", 1, 2)}, {sub("a", 2, 2)}, {}}), mesh));
  // 16 -> 4x4 the same way: a device's 4 elements become a 2x2 block.
  EXPECT_FALSE(shardingLocalAcrossReshape({16}, sharding({{full("a")}}), {4, 4},
                                          sharding({{sub("a", 1, 2)}, {sub("a", 2, 2)}}), mesh));
  // 6 -> 2x3: the major piece steps 4 elements in but 3 out.
  EXPECT_FALSE(shardingLocalAcrossReshape({6}, sharding({{full("a")}}), {2, 3},
                                          sharding({{sub("a", 1, 2)}, {sub("a", 2, 2)}}), mesh));
}

}  // namespace
}  // namespace autopart
