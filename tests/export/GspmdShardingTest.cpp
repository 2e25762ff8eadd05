// GSPMD strings for Shardy shardings, each worked out by hand from the
// device numbering (device id = x * |y| + y on mesh ["x", "y"]).
#include "export/GspmdSharding.h"

#include <gtest/gtest.h>

namespace autopart {
namespace {

Mesh mesh(std::vector<MeshAxis> axes, std::vector<int64_t> ids = {}) {
  Mesh m;
  m.axes = std::move(axes);
  m.deviceIds = std::move(ids);
  return m;
}

TensorSharding sharding(std::vector<std::vector<AxisRef>> dims) {
  TensorSharding s = TensorSharding::closed("mesh", dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.dims[i].axes = dims[i];
  return s;
}

AxisRef sub(const char *name, int64_t pre, int64_t size) { return AxisRef{name, pre, size}; }

std::string gspmd(const TensorSharding &s, const Mesh &m) {
  std::string err;
  std::string g = gspmdSharding(s, m, &err);
  EXPECT_TRUE(err.empty()) << err;
  return g;
}

const Mesh kXY = mesh({{"x", 8}, {"y", 4}});

TEST(GspmdSharding, Replicated) {
  EXPECT_EQ(gspmd(sharding({{}, {}}), kXY), "{replicated}");
  EXPECT_EQ(gspmd(sharding({}), kXY), "{replicated}");  // a scalar
}

TEST(GspmdSharding, FullyTiledInMeshOrderIsOneIota) {
  EXPECT_EQ(gspmd(sharding({{{"x"}}, {{"y"}}}), kXY), "{devices=[8,4]<=[32]}");
  // Both axes on one dimension, major to minor as in the mesh.
  EXPECT_EQ(gspmd(sharding({{{"x"}, {"y"}}, {}}), kXY), "{devices=[32,1]<=[32]}");
}

TEST(GspmdSharding, AxesAgainstMeshOrderTranspose) {
  // y on dim 0, x on dim 1: tile (i, j) holds the device with y = i and
  // x = j, the [8,4] device array transposed.
  EXPECT_EQ(gspmd(sharding({{{"y"}}, {{"x"}}}), kXY), "{devices=[4,8]<=[8,4]T(1,0)}");
  EXPECT_EQ(gspmd(sharding({{{"y"}, {"x"}}}), kXY), "{devices=[32]<=[8,4]T(1,0)}");
}

TEST(GspmdSharding, PartiallyReplicated) {
  // The example: y shards dim 0, x replicates.
  EXPECT_EQ(gspmd(sharding({{{"y"}}, {}}), kXY), "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}");
  // x shards dim 1, y replicates: already in order, one iota.
  EXPECT_EQ(gspmd(sharding({{}, {{"x"}}}), kXY), "{devices=[1,8,4]<=[32] last_tile_dim_replicate}");
}

TEST(GspmdSharding, SubAxesSplitTheirAxis) {
  // "x":(2)4 is the minor 4 of x = 2 x 4: array [2,4,4] (x major, x minor,
  // y); dim 0 takes x minor, x major and y replicate.
  EXPECT_EQ(gspmd(sharding({{sub("x", 2, 4)}, {}}), kXY),
            "{devices=[4,1,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}");
  // The major 2 of x on dim 1: in order, one iota.
  EXPECT_EQ(gspmd(sharding({{}, {sub("x", 1, 2)}}), kXY), "{devices=[1,2,16]<=[32] last_tile_dim_replicate}");
  // Both halves of x on different dimensions, swapped.
  EXPECT_EQ(gspmd(sharding({{sub("x", 4, 2)}, {sub("x", 1, 4)}}), mesh({{"x", 8}})),
            "{devices=[2,4]<=[4,2]T(1,0)}");
}

TEST(GspmdSharding, ExplicitDeviceIdsAreListed) {
  Mesh m = mesh({{"x", 2}, {"y", 2}}, {0, 2, 1, 3});
  EXPECT_EQ(gspmd(sharding({{{"x"}}, {{"y"}}}), m), "{devices=[2,2]0,2,1,3}");
  // y on dim 0: tile (i, j) = mesh (x = j, y = i) = ids[2j + i].
  EXPECT_EQ(gspmd(sharding({{{"y"}}, {{"x"}}}), m), "{devices=[2,2]0,1,2,3}");
  EXPECT_EQ(gspmd(sharding({{{"y"}}, {}}), m), "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}");
  // Ids in iota order are the iota form.
  EXPECT_EQ(gspmd(sharding({{{"x"}}, {}}), mesh({{"x", 2}, {"y", 2}}, {0, 1, 2, 3})),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
}

TEST(GspmdSharding, MaximalMesh) {
  EXPECT_EQ(gspmd(sharding({{}, {}}), mesh({}, {3})), "{maximal device=3}");
}

TEST(GspmdSharding, UnreducedAxesAreASubgroupWithTheirReduction) {
  // y = dim 0; x holds partial sums: a tile dimension of 8 typed unreduced.
  TensorSharding s = sharding({{{"y"}}, {}});
  s.unreduced.push_back(AxisRef{"x"});
  EXPECT_EQ(gspmd(s, kXY), "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={unreduced} "
                           "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}");
  // Unreduced over every device and nothing tiled: the bare form.
  TensorSharding all = sharding({{}, {}});
  all.unreduced = {AxisRef{"x"}, AxisRef{"y"}};
  all.unreducedKind = "max";
  EXPECT_EQ(gspmd(all, kXY), "{unreduced metadata={op_type=\"sdy::reduction_op\" op_name=\"MAX\"}}");
}

TEST(GspmdSharding, ManualAxesOfTheEnclosingComputation) {
  GspmdOptions o;
  o.manualAxes = {"x"};
  std::string err;
  // y on dim 0 inside a computation manual over x: tile [4,1] then 8 manual.
  EXPECT_EQ(gspmdSharding(sharding({{{"y"}}, {}}), kXY, &err, o),
            "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}");
  o.manualAxes = {"x", "y"};
  EXPECT_EQ(gspmdSharding(sharding({{}, {}}), kXY, &err, o), "{manual}");
  EXPECT_TRUE(err.empty());
}

TEST(GspmdSharding, ReplicatedGroupsOfExplicitDevicesAreSorted) {
  // Devices listed in reverse: the group of each x coordinate is {y=0,y=1}
  // = {3,2} and {1,0}, written ascending as XLA canonicalises them.
  EXPECT_EQ(gspmd(sharding({{{"x"}}, {}}), mesh({{"x", 2}, {"y", 2}}, {3, 2, 1, 0})),
            "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}");
}

TEST(GspmdSharding, V3SpellsTheShardyShardingWithItsMesh) {
  GspmdOptions o;
  o.v3 = true;
  std::string err;
  TensorSharding s = sharding({{{"y"}}, {sub("x", 2, 2)}});
  s.dims[1].closed = false;
  s.replicated = {sub("x", 1, 2)};
  EXPECT_EQ(gspmdSharding(s, kXY, &err, o), "{mesh['x'=8,'y'=4], [{'y'}, {'x':(2)2, ?}], replicated={'x':(1)2}}");
  EXPECT_EQ(gspmdSharding(sharding({{{"x"}}}), mesh({{"x", 2}}, {1, 0}), &err, o),
            "{mesh['x'=2], device_ids=(1,0), [{'x'}]}");
  EXPECT_EQ(gspmdSharding(sharding({}), mesh({}, {5}), &err, o), "{single_device[device_id=5]}");
  EXPECT_EQ(gspmdSharding(sharding({}), kXY, &err, o), "{mesh['x'=8,'y'=4], replicated}");
  EXPECT_TRUE(err.empty());
}

TEST(GspmdSharding, InvalidIsAnError) {
  std::string err;
  EXPECT_EQ(gspmdSharding(sharding({{{"z"}}, {}}), kXY, &err), "");
  EXPECT_FALSE(err.empty());
  err.clear();
  GspmdOptions o;
  o.manualAxes = {"w"};
  EXPECT_EQ(gspmdSharding(sharding({{}, {}}), kXY, &err, o), "");
  EXPECT_NE(err.find("manual axis"), std::string::npos);
}

TEST(GspmdSharding, TupleForSeveralResults) {
  EXPECT_EQ(gspmdTuple({"{replicated}", "{devices=[8,4]<=[32]}"}), "{{replicated}, {devices=[8,4]<=[32]}}");
}

}  // namespace
}  // namespace autopart
