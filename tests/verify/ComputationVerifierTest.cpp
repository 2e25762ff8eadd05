// The manual and named computation checks on small programs, each case one
// Shardy rule, by its message and line.
#include "verify/Verifier.h"

#include "tests/verify/VerifyTestUtil.h"

namespace autopart {
namespace {

using testing::verifyError;

// A manual computation over mesh ["a"=2, "b"=2] with the given shardings,
// manual axes and body argument / result type.
std::string manual(const std::string &in, const std::string &out, const std::string &axes,
                   const std::string &local) {
  return R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[)" +
         in + "] out_shardings=[" + out + "] manual_axes=" + axes + " (%arg1: " + local +
         ") {\n    sdy.return %arg1 : " + local +
         "\n  } : (tensor<16x32xf32>) -> tensor<16x32xf32>\n  return %0 : tensor<16x32xf32>\n}";
}

TEST(ComputationVerifierTest, AcceptsLocalShapesDividedByManualAxes) {
  EXPECT_EQ(verifyError(manual(R"(<@mesh, [{"a", "b"}, {}]>)", R"(<@mesh, [{"a"}, {}]>)",
                               R"({"a"})", "tensor<8x32xf32>")),
            "");
}

TEST(ComputationVerifierTest, LocalShapeMustMatch) {
  EXPECT_EQ(verifyError(manual(R"(<@mesh, [{"a"}, {}]>)", R"(<@mesh, [{"a"}, {}]>)", R"({"a"})",
                               "tensor<16x32xf32>")),
            "t.mlir:3:8: error: 'sdy.manual_computation' op operand shape, corresponding sharding, "
            "and region operand shape at index 0 must match. Expected local shape "
            "'tensor<8x32xf32>', actual local shape 'tensor<16x32xf32>'");
}

TEST(ComputationVerifierTest, ManualAxesComeFirstAndExist) {
  EXPECT_EQ(verifyError(manual(R"(<@mesh, [{"a", "b"}, {}]>)", R"(<@mesh, [{"b"}, {}]>)",
                               R"({"b"})", "tensor<8x32xf32>")),
            "t.mlir:3:8: error: 'sdy.manual_computation' op operand sharding at index 0 must have "
            "all manual axes come before free axes in its dimension sharding at index 0. Saw "
            "manual axis \"b\" after free axis \"a\"");
  EXPECT_EQ(verifyError(manual(R"(<@mesh, [{"a"}, {}]>)", R"(<@mesh, [{"a"}, {}]>)",
                               R"({"a", "c"})", "tensor<8x32xf32>")),
            "t.mlir:3:8: error: 'sdy.manual_computation' op unknown manual axis: \"c\"");
}

TEST(ComputationVerifierTest, ShardingCountAndPrefix) {
  EXPECT_EQ(verifyError(manual(R"(<@mesh, [{}, {}]>, <@mesh, [{}, {}]>)", R"(<@mesh, [{}, {}]>)",
                               "{}", "tensor<16x32xf32>")),
            "t.mlir:3:8: error: 'sdy.manual_computation' op operand shardings don't match number "
            "of values: 2 shardings vs 1 values");
  EXPECT_EQ(
      verifyError(manual(R"(<@mesh, [{}, {}]>)", R"(<@mesh, [{}]>)", "{}", "tensor<16x32xf32>")),
      "t.mlir:3:8: error: 'sdy.manual_computation' op result - sharding doesn't match tensor "
      "rank: 1 != 2");
}

TEST(ComputationVerifierTest, NestedComputationCannotRebindAnAxis) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg2: tensor<8xf32>) {
      sdy.return %arg2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
})");
  ASSERT_TRUE(m);
  Diagnostics diags;
  EXPECT_FALSE(verifyModule(*m, diags));
  ASSERT_EQ(diags.all().size(), 2u);
  EXPECT_EQ(diags.all()[0].str(),
            "t.mlir:4:10: error: 'sdy.manual_computation' op operates on axis \"a\" which is "
            "already bound by a parent sdy.manual_computation op");
  EXPECT_EQ(diags.all()[1].str(), "t.mlir:3:8: note: parent bounding this axis as manual");
}

TEST(ComputationVerifierTest, BodyIsIsolatedFromAbove) {
  EXPECT_EQ(verifyError(R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = stablehlo.add %arg0, %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "t.mlir:3:10: error: 'stablehlo.add' op using value defined outside the region");
}

TEST(ComputationVerifierTest, NamedComputationTypesMatch) {
  EXPECT_EQ(verifyError(R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%arg0) (%arg1: tensor<4xf32>) {
    %1 = stablehlo.custom_call @h(%arg1) : (tensor<4xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "t.mlir:2:8: error: expected the type of the 0'th block argument to match the type of "
            "the corresponding operand: 'tensor<4xf32>' vs 'tensor<8xf32>'");
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "t.mlir:3:8: error: 'sdy.named_computation' op in_shardings - sharding doesn't match "
            "tensor rank: 2 != 1");
}

}  // namespace
}  // namespace autopart
