// The constant splitter gives every non-constant user its own copy of a
// constant sub-computation, keeps scalars shared, and copies constant
// named computations and calls (with their callees).
#include <gtest/gtest.h>


#include "tests/import/ImportTestUtil.h"

namespace autopart {
namespace {

using testing::count;
using testing::runPass;

TEST(ConstantSplitter, EachUserGetsItsOwnChain) {
  std::string out = runPass(R"(
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.constant dense<1.0> : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8xf32>
  %3 = stablehlo.multiply %1, %arg0 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
})",
                            "sdy-constant-or-scalar-splitter");
  // One constant and one negate per non-constant user; none left over.
  EXPECT_EQ(count(out, "sdy.constant"), 2u);
  EXPECT_EQ(count(out, "stablehlo.negate"), 2u);
  EXPECT_EQ(count(out, "stablehlo.constant"), 0u);
}

TEST(ConstantSplitter, ScalarsStayShared) {
  std::string out = runPass(R"(
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8xf32>
  %3 = stablehlo.multiply %1, %arg0 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
})",
                            "sdy-constant-or-scalar-splitter");
  EXPECT_EQ(count(out, "sdy.constant"), 1u);              // the scalar is not copied
  EXPECT_EQ(count(out, "stablehlo.broadcast_in_dim"), 2u);  // its expansion is
}

TEST(ConstantSplitter, ConstantCallsGetTheirOwnCallee) {
  std::string out = runPass(R"(
func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @foo() : () -> tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
func.func private @foo() -> tensor<8xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<8xf32>
  return %0 : tensor<8xf32>
})",
                            "sdy-constant-or-scalar-splitter");
  EXPECT_NE(out.find("call @foo_0()"), std::string::npos) << out;
  EXPECT_NE(out.find("call @foo_1()"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.original_func_name = \"foo\""), std::string::npos);
}

TEST(ConstantSplitter, NonConstantCallIsAnOrdinaryUser) {
  std::string out = runPass(R"(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.dot %arg0, %arg0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
})",
                            "sdy-constant-or-scalar-splitter");
  EXPECT_EQ(out.find("foo_0"), std::string::npos) << out;
}

}  // namespace
}  // namespace autopart
