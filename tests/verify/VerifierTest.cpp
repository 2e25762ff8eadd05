// The verifier on small programs: each case one Shardy rule, checked by the
// message and the line it is reported at.
#include "verify/Verifier.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

// The single error of verifying `text`, "" when it verifies.
std::string verifyError(const std::string &text) {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return "<parse error>";
  Diagnostics diags;
  bool ok = verifyModule(*m, diags);
  EXPECT_EQ(ok, !diags.hasErrors());
  return diags.errorText();
}

TEST(VerifierTest, AcceptsValidShardings) {
  EXPECT_EQ(verifyError(R"(
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}], replicated={"b"}>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
})"),
            "");
}

TEST(VerifierTest, RejectsUnknownAxisOnArgument) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "t.mlir:2:1: error: 'func.func' op arg 0 - unknown axis name: \"c\"");
}

TEST(VerifierTest, RejectsRankMismatchOnSecondResult) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = stablehlo.custom_call @g(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"a"}, {}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
})"),
            "t.mlir:3:10: error: 'stablehlo.custom_call' op result 1 - sharding doesn't match tensor "
            "rank: 2 != 1");
}

TEST(VerifierTest, RejectsUnknownMeshAndCountMismatch) {
  EXPECT_EQ(verifyError(R"(func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nope, [{}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "t.mlir:1:1: error: 'func.func' op arg 0 - unknown mesh: @nope");
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "t.mlir:3:8: error: 'stablehlo.abs' op result shardings don't match number of values: 2 "
            "shardings vs 1 values");
}

TEST(VerifierTest, MaximalShardingHasRankZero) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @maximal = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "");
  EXPECT_EQ(verifyError(R"(sdy.mesh @maximal = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "t.mlir:2:1: error: 'func.func' op arg 0 - a maximal sharding can only have a sharding "
            "with rank 0 and no replicated or unreduced axes");
}

}  // namespace
}  // namespace autopart
