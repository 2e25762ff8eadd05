// The collective planner behind -sdy-reshard-to-collectives: which
// collectives, in which order, with which intermediate shardings; and the
// pass around it (what it leaves, what it refuses).
#include <gtest/gtest.h>

#include "export/CollectivePlanner.h"
#include "ir/Pass.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using Kind = CollectiveStep::Kind;
using testing::opsNamed;
using testing::parse;

AxisRef full(const std::string &name) { return AxisRef{name, 0, 0}; }
AxisRef sub(const std::string &name, int64_t pre, int64_t size) { return AxisRef{name, pre, size}; }

Mesh meshOf(std::initializer_list<std::pair<const char *, int64_t>> axes) {
  Mesh m;
  for (const auto &[name, size] : axes) m.axes.push_back({name, size});
  return m;
}

std::vector<Kind> kinds(const CollectivePlan &plan) {
  std::vector<Kind> out;
  for (const CollectiveStep &s : plan.steps) out.push_back(s.kind);
  return out;
}

TEST(CollectivePlannerTest, SameShardingNeedsNothing) {
  Mesh mesh = meshOf({{"x", 2}, {"y", 2}});
  CollectivePlan plan = planCollectives(mesh, {8, 8}, {{full("x")}, {}}, {{full("x")}, {}}, false);
  EXPECT_TRUE(plan.reached);
  EXPECT_TRUE(plan.steps.empty());
}

TEST(CollectivePlannerTest, DroppedMinorAxesAreGatheredTogether) {
  Mesh mesh = meshOf({{"x", 2}, {"y", 2}, {"z", 2}});
  CollectivePlan plan =
      planCollectives(mesh, {16, 8}, {{full("x"), full("y"), full("z")}, {}}, {{full("x")}, {}}, false);
  ASSERT_TRUE(plan.reached);
  ASSERT_EQ(kinds(plan), std::vector<Kind>{Kind::AllGather});
  EXPECT_EQ(plan.steps[0].perDim, (std::vector<AxisList>{{full("y"), full("z")}, {}}));
  EXPECT_EQ(plan.steps[0].result, (std::vector<AxisList>{{full("x")}, {}}));
}

TEST(CollectivePlannerTest, SubAxisIsSplitOffItsAxis) {
  // Keeping the major 4 of y=8 gathers the minor 2.
  Mesh mesh = meshOf({{"x", 2}, {"y", 8}});
  CollectivePlan plan =
      planCollectives(mesh, {16, 8}, {{full("y")}, {full("x")}}, {{sub("y", 1, 4)}, {full("x")}}, false);
  ASSERT_TRUE(plan.reached);
  ASSERT_EQ(kinds(plan), std::vector<Kind>{Kind::AllGather});
  EXPECT_EQ(plan.steps[0].perDim[0], (AxisList{sub("y", 4, 2)}));
  EXPECT_EQ(plan.steps[0].result[0], (AxisList{sub("y", 1, 4)}));
}

TEST(CollectivePlannerTest, MovingAnAxisIsOneAllToAll) {
  Mesh mesh = meshOf({{"x", 2}, {"y", 2}, {"z", 2}});
  CollectivePlan plan =
      planCollectives(mesh, {16, 8, 8}, {{full("x")}, {full("y")}, {}}, {{}, {full("y")}, {full("x")}}, false);
  ASSERT_TRUE(plan.reached);
  ASSERT_EQ(kinds(plan), std::vector<Kind>{Kind::AllToAll});
  EXPECT_EQ(plan.steps[0].param, (AllToAllParam{{full("x")}, 0, 2}));
}

TEST(CollectivePlannerTest, SliceThenPermuteThenAllToAllsInShardysOrder) {
  // [{z}, {x}, {}] -> [{}, {}, {x, y, z, w}] on a 2x8x8 tensor: dim 0 is too
  // small to take w, so w is sliced on dim 2, a permute regroups the axes and
  // two all-to-alls land them in order.
  Mesh mesh = meshOf({{"x", 2}, {"y", 2}, {"z", 2}, {"w", 2}});
  CollectivePlan plan = planCollectives(mesh, {2, 8, 8}, {{full("z")}, {full("x")}, {}},
                                        {{}, {}, {full("x"), full("y"), full("z"), full("w")}}, false);
  ASSERT_TRUE(plan.reached);
  EXPECT_EQ(kinds(plan),
            (std::vector<Kind>{Kind::AllSlice, Kind::CollectivePermute, Kind::AllToAll, Kind::AllToAll}));
  EXPECT_EQ(plan.steps[0].perDim, (std::vector<AxisList>{{}, {full("y")}, {full("w")}}));
  EXPECT_EQ(plan.steps[1].result, (std::vector<AxisList>{{full("y")}, {full("z"), full("w")}, {full("x")}}));
  EXPECT_EQ(plan.steps.back().result,
            (std::vector<AxisList>{{}, {}, {full("x"), full("y"), full("z"), full("w")}}));
}

TEST(CollectivePlannerTest, DeviceOrderChangeAloneIsOnePermute) {
  Mesh mesh = meshOf({{"x", 2}, {"y", 2}});
  CollectivePlan plan = planCollectives(mesh, {8, 8}, {{full("x")}, {}}, {{full("x")}, {}}, true);
  ASSERT_TRUE(plan.reached);
  ASSERT_EQ(kinds(plan), std::vector<Kind>{Kind::CollectivePermute});
  EXPECT_TRUE(plan.steps[0].onTargetMesh);
}

TEST(CollectivePlannerTest, NonDivisibleAxesStillReachTheTarget) {
  // p=2 and q=3 divide neither way: slice q, swap, gather p.
  Mesh mesh = meshOf({{"p", 2}, {"q", 3}});
  CollectivePlan plan = planCollectives(mesh, {12, 12}, {{full("p")}, {}}, {{full("q")}, {}}, false);
  ASSERT_TRUE(plan.reached);
  EXPECT_EQ(kinds(plan), (std::vector<Kind>{Kind::AllSlice, Kind::CollectivePermute, Kind::AllGather}));
  EXPECT_EQ(plan.steps.back().result, (std::vector<AxisList>{{full("q")}, {}}));
}

const char *kModule = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @other = <["r"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@other, [{"r"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";

TEST(ReshardToCollectivesTest, ConvertsWhatCollectivesExpressAndKeepsTheRest) {
  std::unique_ptr<Module> m = parse(kModule);
  ASSERT_TRUE(m);
  Diagnostics diags;
  ASSERT_TRUE(lookupPass("sdy-reshard-to-collectives")->run(*m, PassOptions{}, diags)) << diags.errorText();
  EXPECT_EQ(opsNamed(*m, "sdy.collective_permute").size(), 1u);
  // The mesh change to other axes has no collective: that reshard stays.
  std::vector<OpId> reshards = opsNamed(*m, "sdy.reshard");
  ASSERT_EQ(reshards.size(), 1u);
  EXPECT_EQ(m->definingOp(m->operand(reshards[0], 0)), opsNamed(*m, "sdy.collective_permute")[0]);
}

TEST(ReshardToCollectivesTest, DroppingUnreducedAxesIsAnError) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  ASSERT_TRUE(m);
  Diagnostics diags;
  EXPECT_FALSE(lookupPass("sdy-reshard-to-collectives")->run(*m, PassOptions{}, diags));
  EXPECT_NE(diags.errorText().find("an sdy.all_reduce must come first"), std::string::npos) << diags.errorText();
}

}  // namespace
}  // namespace autopart
