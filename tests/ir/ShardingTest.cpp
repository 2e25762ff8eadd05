// TensorSharding's derived sizes: pieces and local shapes on a mesh.
#include "ir/Sharding.h"

#include <gtest/gtest.h>

namespace autopart {
namespace {

Mesh mesh24() { return Mesh{{{"a", 2}, {"b", 4}}, {}}; }

TEST(TensorSharding, NumShardsMultipliesTheDimensions) {
  TensorSharding s = TensorSharding::closed("mesh", 2);
  EXPECT_EQ(s.numShards(mesh24()), 1);
  s.dims[0].axes.push_back(AxisRef{"a"});
  EXPECT_EQ(s.numShards(mesh24()), 2);
  s.dims[1].axes.push_back(AxisRef{"b"});
  EXPECT_EQ(s.numShards(mesh24()), 8);
  // Replicated and unreduced axes split nothing.
  TensorSharding r = TensorSharding::closed("mesh", 1);
  r.unreduced.push_back(AxisRef{"b"});
  EXPECT_EQ(r.numShards(mesh24()), 1);
}

TEST(TensorSharding, LocalShapeRoundsUp) {
  TensorSharding s = TensorSharding::closed("mesh", 2);
  s.dims[0].axes = {AxisRef{"a"}, AxisRef{"b"}};
  EXPECT_EQ(s.localShape({12, 5}, mesh24()), (std::vector<int64_t>{2, 5}));
}

}  // namespace
}  // namespace autopart
