// chlo.ragged_dot in its three modes (JAX's lax.ragged_dot_general
// documentation), on small operands whose answers are worked out in the
// comments.
#include <gtest/gtest.h>

#include "exec/Run.h"
#include "tests/TestUtil.h"
#include "tests/exec/ExpectChecks.h"

namespace autopart::exec {
namespace {

std::string raggedDot(const std::string &dims, const std::string &types) {
  return "%r = \"chlo.ragged_dot\"(%l, %w, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<" + dims +
         ">, precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]} : " + types;
}

TEST(ExecRaggedDot, NonContractingRowsPickTheirGroups) {
  // Rows 0-1 are group 0 (x10), row 2 group 1 (x100); with sizes [1, 1]
  // row 2 is past the last group and stays 0.
  std::string dims = "lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], "
                     "rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]";
  std::string types = "(tensor<3x1xf32>, tensor<2x1x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>";
  expectAllPass(R"(  %l = stablehlo.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %w = stablehlo.constant dense<[[[10.0]], [[100.0]]]> : tensor<2x1x1xf32>
  %g = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  )" + raggedDot(dims, types) + R"(
  check.expect_eq_const %r, dense<[[10.0], [20.0], [300.0]]> : tensor<3x1xf32>
  %g2 = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %r2 = "chlo.ragged_dot"(%l, %w, %g2) {ragged_dot_dimension_numbers = #chlo.ragged_dot<)" +
                    dims + ">} : " + types + R"(
  check.expect_eq_const %r2, dense<[[10.0], [200.0], [0.0]]> : tensor<3x1xf32>)",
                2);
}

TEST(ExecRaggedDot, GroupSizesPerBatch) {
  // b0 sizes [1, 1]: row 0 -> group 0 (10), row 1 -> group 1 (100);
  // b1 sizes [2, 0]: both rows group 0 (20). [[1*10, 2*100], [3*20, 4*20]].
  std::string dims = "lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], "
                     "rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]";
  expectAllPass(R"(  %l = stablehlo.constant dense<[[[1], [2]], [[3], [4]]]> : tensor<2x2x1xi32>
  %w = stablehlo.constant dense<[[[[10]], [[20]]], [[[100]], [[200]]]]> : tensor<2x2x1x1xi32>
  %g = stablehlo.constant dense<[[1, 1], [2, 0]]> : tensor<2x2xi32>
  )" + raggedDot(dims, "(tensor<2x2x1xi32>, tensor<2x2x1x1xi32>, tensor<2x2xi32>) -> tensor<2x2x1xi32>") + R"(
  check.expect_eq_const %r, dense<[[[10], [200]], [[60], [80]]]> : tensor<2x2x1xi32>)",
                1);
}

TEST(ExecRaggedDot, ContractingGroupsMakeOneProductEach) {
  // [1 2 3] . [1 10 100]: group 0 sums k = 0, 1 (1 + 20), group 1 k = 2 (300).
  std::string dims = "lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], "
                     "rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = []";
  expectAllPass(R"(  %l = stablehlo.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %w = stablehlo.constant dense<[[1.0], [10.0], [100.0]]> : tensor<3x1xf32>
  %g = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  )" + raggedDot(dims, "(tensor<1x3xf32>, tensor<3x1xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>") + R"(
  check.expect_eq_const %r, dense<[[[21.0]], [[300.0]]]> : tensor<2x1x1xf32>)",
                1);
}

TEST(ExecRaggedDot, RaggedBatchIsAPlainBatchedProduct) {
  std::string dims = "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], "
                     "rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = []";
  expectAllPass(R"(  %l = stablehlo.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %w = stablehlo.constant dense<[[[5.0]], [[7.0]]]> : tensor<2x1x1xf32>
  %g = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  )" + raggedDot(dims, "(tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>") + R"(
  check.expect_eq_const %r, dense<[[[10.0]], [[21.0]]]> : tensor<2x1x1xf32>)",
                1);
}

TEST(ExecRaggedDot, MismatchedDimensionsAreLocatedErrors) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main() -> tensor<3x1xf32> {
  %l = stablehlo.constant dense<1.0> : tensor<3x1xf32>
  %w = stablehlo.constant dense<1.0> : tensor<2x1x1xf32>
  %g = stablehlo.constant dense<[2, 1, 0]> : tensor<3xi64>
  %r = "chlo.ragged_dot"(%l, %w, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<3x1xf32>, tensor<2x1x1xf32>, tensor<3xi64>) -> tensor<3x1xf32>
  return %r : tensor<3x1xf32>
})");
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:5:8");
  EXPECT_NE(r.functions[0].error.find("number of groups"), std::string::npos) << r.functions[0].error;
}

}  // namespace
}  // namespace autopart::exec
