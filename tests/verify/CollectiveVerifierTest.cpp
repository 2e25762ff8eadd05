// The collective checks on small programs (each case one Shardy rule, by its
// message and line), and the axis-list algebra they rest on.
#include "verify/DimAxisAlgebra.h"
#include "verify/Verifier.h"

#include "tests/verify/VerifyTestUtil.h"

namespace autopart {
namespace {

using testing::verifyError;

// A program applying `op` to an argument sharded `argSharding` on `mesh`.
std::string program(const std::string &mesh, const std::string &argSharding,
                    const std::string &op) {
  return "sdy.mesh @mesh = " + mesh + "\n" +
         "func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, " +
         argSharding + ">}) -> tensor<16x8xf32> {\n  %0 = " + op +
         " : tensor<16x8xf32>\n  return %0 : tensor<16x8xf32>\n}";
}

TEST(DimAxisAlgebraTest, GathersTheMinorEndAndSlicesByMerging) {
  Mesh mesh{{{"x", 8}, {"y", 2}}, {}};
  AxisRef bad;
  std::optional<AxisList> gathered =
      gatherAlongDim({AxisRef{"y"}, AxisRef{"x"}}, {AxisRef{"x", 2, 4}}, mesh, bad);
  ASSERT_TRUE(gathered);
  EXPECT_EQ(axisListStr(*gathered, "[]"), R"(["y", "x":(1)2])");
  // "x":(2)2 ends at 4, not where "x" does.
  EXPECT_FALSE(gatherAlongDim({AxisRef{"x"}}, {AxisRef{"x", 2, 2}}, mesh, bad));
  EXPECT_EQ(bad.str(), R"("x":(2)2)");
  EXPECT_EQ(axisListStr(sliceAlongDim({AxisRef{"x", 1, 2}}, {AxisRef{"x", 2, 2}}, mesh), "[]"),
            R"(["x":(1)4])");
  EXPECT_EQ(axisListStr(sliceAlongDim({AxisRef{"x", 1, 2}}, {AxisRef{"x", 4, 2}}, mesh), "[]"),
            R"(["x":(1)2, "x":(4)2])");
}

TEST(CollectiveVerifierTest, AcceptsValidCollectives) {
  const std::string mesh = R"(<["x"=2, "y"=2]>)";
  EXPECT_EQ(
      verifyError(program(mesh, R"([{"y"}, {"x"}])",
                          R"(sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>)")),
      "");
  EXPECT_EQ(verifyError(
                program(mesh, R"([{"y"}, {}])",
                        R"(sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>)")),
            "");
  EXPECT_EQ(verifyError(program(
                mesh, R"([{"y"}, {"x"}])",
                R"(sdy.all_to_all [{"x"}: 1->0] %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]>)")),
            "");
  EXPECT_EQ(verifyError(program(mesh, R"([{"y"}, {}], unreduced={"x"})",
                                R"(sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]>)")),
            "");
}

TEST(CollectiveVerifierTest, GatheringAxesMustEndTheOperandDimension) {
  EXPECT_EQ(verifyError(program(
                R"(<["x"=2, "y"=2]>)", R"([{"y"}, {"x"}])",
                R"(sdy.all_gather [{}, {"x", "y"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>)")),
            "t.mlir:3:8: error: 'sdy.all_gather' op can't apply gathering axis \"y\" to operand "
            "sharding on dimension 1");
}

TEST(CollectiveVerifierTest, ResultMustBeTheSlicedOperand) {
  EXPECT_EQ(
      verifyError(program(
          R"(<["x"=8, "y"=2]>)", R"([{"y"}, {"x":(1)2}])",
          R"(sdy.reduce_scatter [{}, {"x":(4)2}] %arg0 out_sharding=<@mesh, [{"y"}, {"x":(1)4}]>)")),
      "t.mlir:3:8: error: 'sdy.reduce_scatter' op result sharding doesn't match expected "
      "sharding [\"x\":(1)2, \"x\":(4)2] on dimension 1");
}

TEST(CollectiveVerifierTest, OperandNeedsShardingOnTheSameMesh) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "t.mlir:3:8: error: 'sdy.all_gather' op collective on operand without sharding");
  // Slicing an unsharded operand needs no sharding on it: it is replicated.
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.all_slice [{"x"}] %arg0 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "");
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @a = <["x"=2]>
sdy.mesh @b = <["x"=4]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@b, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@a, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  ASSERT_TRUE(m);
  Diagnostics diags;
  EXPECT_FALSE(verifyModule(*m, diags));
  ASSERT_EQ(diags.all().size(), 2u);
  EXPECT_EQ(diags.all()[0].str(),
            "t.mlir:4:8: error: 'sdy.all_gather' op result mesh does not match operand mesh");
  EXPECT_EQ(diags.all()[1].str(), "t.mlir:3:1: note: operand mesh: #sdy.mesh<[\"x\"=4]>");
}

TEST(CollectiveVerifierTest, AllToAllDimensionsAreUniqueAndAscending) {
  std::string sharded =
      R"(tensor<16x8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}, {}]>})";
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: )" + sharded +
                        R"() -> tensor<16x8x8x8xf32> {
  %0 = sdy.all_to_all [{"y"}: 2->1, {"x"}: 0->3] %arg0 out_sharding=<@mesh, [{}, {"y"}, {}, {"x"}]> : tensor<16x8x8x8xf32>
  return %0 : tensor<16x8x8x8xf32>
})"),
            "t.mlir:3:8: error: 'sdy.all_to_all' op source dimensions are not sorted in ascending "
            "order: 0 appears after 2");
}

TEST(CollectiveVerifierTest, CollectivePermuteKeepsShardedSizes) {
  EXPECT_EQ(verifyError(program(
                R"(<["x"=2, "y"=4, "z"=2]>)", R"([{"x", "y"}, {"z"}])",
                R"(sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x"}, {"y", "z"}]>)")),
            "t.mlir:3:8: error: 'sdy.collective_permute' op sharded size of result doesn't match "
            "operand on dimension 0: 2 != 8");
}

TEST(CollectiveVerifierTest, UnreducedAxesFollowTheCollective) {
  EXPECT_EQ(
      verifyError(program(
          R"(<["x"=2, "y"=2, "z"=2]>)", R"([{"y"}, {"x"}])",
          R"(sdy.all_reduce {} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}>)")),
      "t.mlir:3:8: error: 'sdy.all_reduce' op cannot add new unreduced axis 'z'.");
  EXPECT_EQ(
      verifyError(program(
          R"(<["x"=4, "y"=4]>)", R"([{}, {}], unreduced={"x"})",
          R"(sdy.replicated_to_unreduced {"y"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}>)")),
      "t.mlir:3:8: error: 'sdy.replicated_to_unreduced' op out_unreduced_axes should be "
      "in_unreduced_axes + r2u_axes");
}

}  // namespace
}  // namespace autopart
