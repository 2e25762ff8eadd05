// The import passes that rewrite shardings themselves: inlined meshes
// lifted to symbols, size-one axes dropped, manual axes made explicit,
// sharding groups merged and checked, constraints applied to inputs.
#include <gtest/gtest.h>

#include "tests/import/ImportTestUtil.h"

namespace autopart {
namespace {

using testing::count;
using testing::runPass;

TEST(LiftInlinedMeshes, InlineMeshesBecomeSymbolsAndDuplicatesMerge) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @copy = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["y"=4]>, [{"y"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@copy, [{"x"}]> : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <mesh<[], device_ids=[3]>, []> : tensor<8xf32>
  return %1 : tensor<8xf32>
})",
                            "sdy-lift-inlined-meshes");
  EXPECT_EQ(out.find("@copy"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.mesh @mesh_0 = <[\"y\"=4]>"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.mesh @maximal_mesh_3"), std::string::npos) << out;
  EXPECT_NE(out.find("<@mesh, [{\"x\"}]>"), std::string::npos);
  EXPECT_EQ(out.find("mesh<["), std::string::npos);  // nothing inline is left
}

TEST(RemoveSizeOneAxes, DropsAxesAndStalePriorities) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["a"=1, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}p0, {"a"}p1], replicated={"a"}>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
})",
                            "sdy-remove-size-one-axes");
  EXPECT_NE(out.find("#sdy.sharding<@mesh, [{\"b\"}p0, {}]>"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.mesh @mesh = <[\"a\"=1, \"b\"=2]>"), std::string::npos);  // the mesh keeps it
}

TEST(ManualAxesCleanup, UnusedPiecesOfAManualAxisAreReplicated) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["x"=8, "y"=2]>
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x":(2)2}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"x":(2)2}]>] manual_axes={"y", "x"} (%arg2: tensor<4xf32>, %arg3: tensor<8xf32>) {
    sdy.return %arg2 : tensor<4xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})",
                            "sdy-manual-axes-cleanup");
  // The two pieces of "x" around the used one, and all of "y".
  EXPECT_EQ(testing::count(out, "<@mesh, [{\"x\":(2)2}], replicated={\"x\":(1)2, \"x\":(4)2, \"y\"}>"), 2u) << out;
  EXPECT_NE(out.find("<@mesh, [{}], replicated={\"x\", \"y\"}>"), std::string::npos) << out;
  EXPECT_NE(out.find("manual_axes={\"x\", \"y\"}"), std::string::npos) << out;
}

TEST(ShardingGroupImport, MergesTransitivelyAndDropsDuplicates) {
  std::string out = runPass(R"(
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id = 7 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 9 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 7 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id = 5 : tensor<8xf32>
  func.return
})",
                            "sdy-sharding-group-import");
  EXPECT_EQ(count(out, "group_id=0"), 2u) << out;  // %arg0 and %arg1, once each
  EXPECT_EQ(count(out, "group_id=1"), 1u) << out;
}

TEST(ShardingGroupImport, ShapesMustAgree) {
  std::unique_ptr<Module> m = testing::parse(R"(
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) {
  sdy.sharding_group %arg0 group_id = 1 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 1 : tensor<4xf32>
  func.return
})");
  ASSERT_TRUE(m);
  Diagnostics diags;
  EXPECT_FALSE(lookupPass("sdy-sharding-group-import")->run(*m, {}, diags));
  EXPECT_NE(diags.errorText().find("must have the same shape for groupId: 1"), std::string::npos);
}

TEST(ApplyShardingConstraints, ClosedConstraintShardsItsInput) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}]> : tensor<8xf32>
  %2 = stablehlo.negate %arg0 : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a", ?}]> : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
})",
                            "sdy-apply-sharding-constraints");
  EXPECT_NE(out.find("stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>}"),
            std::string::npos)
      << out;
  // An open constraint dictates nothing.
  EXPECT_NE(out.find("stablehlo.negate %arg0 : tensor<8xf32>"), std::string::npos) << out;
}

TEST(ApplyShardingConstraints, DataFlowEdgeUsersReadTheConstraint) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{"a"}]> : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
})",
                            "sdy-apply-sharding-constraints");
  // The constraint moves right after the edge and the abs reads it.
  EXPECT_NE(out.find("%1 = sdy.sharding_constraint %0"), std::string::npos) << out;
  EXPECT_NE(out.find("stablehlo.abs %1"), std::string::npos) << out;
}

}  // namespace
}  // namespace autopart
