#include "sim/CollectiveCost.h"

#include <gtest/gtest.h>

namespace autopart {
namespace {

Mesh mesh84() { return Mesh{{{"data", 8}, {"model", 4}}, {}}; }

DeviceParams links() {
  DeviceParams d;
  d.defaultLink = {100e9, 0};
  d.axisLinks["model"] = {400e9, 1e-6};
  return d;
}

TEST(CollectiveCost, RingAllGatherOneAxis) {
  Collective c{CollectiveKind::AllGather, {AxisRef{"data"}}, 8 << 20};
  // 7/8 of the 8 MiB gathered buffer crosses the link.
  EXPECT_DOUBLE_EQ(collectiveSeconds(c, mesh84(), links()), 7.0 / 8 * (8 << 20) / 100e9);
}

TEST(CollectiveCost, AllReduceIsTwiceReduceScatter) {
  Collective rs{CollectiveKind::ReduceScatter, {AxisRef{"data"}}, 1 << 20};
  Collective ar{CollectiveKind::AllReduce, {AxisRef{"data"}}, 1 << 20};
  EXPECT_DOUBLE_EQ(collectiveSeconds(ar, mesh84(), links()), 2 * collectiveSeconds(rs, mesh84(), links()));
  EXPECT_DOUBLE_EQ(collectiveSeconds(ar, mesh84(), links()), 2 * 7.0 / 8 * (1 << 20) / 100e9);
}

TEST(CollectiveCost, LatencyPerRingStep) {
  Collective c{CollectiveKind::AllGather, {AxisRef{"model"}}, 4000};
  // 3 steps of 1 us plus 3/4 * 4000 B / 400 GB/s.
  EXPECT_DOUBLE_EQ(collectiveSeconds(c, mesh84(), links()), 3e-6 + 0.75 * 4000 / 400e9);
}

TEST(CollectiveCost, TwoAxesComposeMinorFirst) {
  // Gather over {data, model}: the model stage ends with B/8, the data stage with B.
  double b = 32 << 20;
  Collective c{CollectiveKind::AllGather, {AxisRef{"data"}, AxisRef{"model"}}, int64_t(b)};
  double expected = 3e-6 + 0.75 * (b / 8) / 400e9 + 7.0 / 8 * b / 100e9;
  EXPECT_DOUBLE_EQ(collectiveSeconds(c, mesh84(), links()), expected);
}

TEST(CollectiveCost, SwitchedLinkAllReducesSmallBuffersAsATree) {
  // 256 devices, 10 us per step: a ring pays 2·255 steps, the double binary
  // tree 2·8.
  Mesh mesh{{{"data", 256}}, {}};
  DeviceParams d;
  d.defaultLink = {50e9, 10e-6, /*treeAllReduce=*/true};
  Collective small{CollectiveKind::AllReduce, {AxisRef{"data"}}, 144 << 10};
  EXPECT_DOUBLE_EQ(collectiveSeconds(small, mesh, d), 2 * (8 * 10e-6 + double(144 << 10) / 50e9));
  // A ring-only link keeps the ring's latency.
  d.defaultLink.treeAllReduce = false;
  EXPECT_DOUBLE_EQ(collectiveSeconds(small, mesh, d),
                   2 * (255 * 10e-6 + 255.0 / 256 * double(144 << 10) / 50e9));
}

TEST(CollectiveCost, SwitchedLinkKeepsTheRingWhenItIsFaster) {
  // 8 devices, no latency: the ring moves 7/8 of the buffer twice, the tree
  // all of it twice.
  DeviceParams d;
  d.defaultLink = {100e9, 0, /*treeAllReduce=*/true};
  Collective big{CollectiveKind::AllReduce, {AxisRef{"data"}}, 64 << 20};
  EXPECT_DOUBLE_EQ(collectiveSeconds(big, mesh84(), d), 2 * 7.0 / 8 * (64 << 20) / 100e9);
}

TEST(CollectiveCost, SliceIsFreePermuteMovesAll) {
  Collective s{CollectiveKind::AllSlice, {AxisRef{"data"}}, 1 << 20};
  EXPECT_EQ(collectiveSeconds(s, mesh84(), links()), 0);
  Collective p{CollectiveKind::CollectivePermute, {AxisRef{"data"}}, 1 << 20};
  EXPECT_DOUBLE_EQ(collectiveSeconds(p, mesh84(), links()), double(1 << 20) / 100e9);
  Collective a{CollectiveKind::AllToAll, {AxisRef{"data"}}, 1 << 20};
  EXPECT_DOUBLE_EQ(collectiveSeconds(a, mesh84(), links()), 7.0 / 8 * (1 << 20) / 100e9);
}

}  // namespace
}  // namespace autopart
