// Which argument each result of a step carries over: tf.aliasing_output,
// else the nearest argument of the same type through elementwise ops.
#include "analysis/CarriedState.h"

#include <gtest/gtest.h>

#include "asm/Parser.h"

namespace autopart {
namespace {

std::unique_ptr<Module> parse(const std::string &text) {
  ParseError err;
  auto m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

std::vector<int64_t> carried(const Module &m) { return carriedArguments(m, m.functions().front()); }

// SGD with momentum: new_m = b * m + g, new_w = w - lr * new_m, with the
// gradient computed from the data. %w is one op from result 0, %m two from
// result 1 (and three from result 0, through new_m).
TEST(CarriedState, MomentumStepPairsParameterAndMoment) {
  auto m = parse(R"(
func.func @main(%w: tensor<4x8xf32>, %m: tensor<4x8xf32>, %x: tensor<2x4xf32>, %dy: tensor<2x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g = stablehlo.dot_general %x, %dy, contracting_dims = [0] x [0] : (tensor<2x4xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
  %b = stablehlo.constant dense<0.9> : tensor<4x8xf32>
  %0 = stablehlo.multiply %b, %m : tensor<4x8xf32>
  %1 = stablehlo.add %0, %g : tensor<4x8xf32>
  %lr = stablehlo.constant dense<0.1> : tensor<4x8xf32>
  %2 = stablehlo.multiply %lr, %1 : tensor<4x8xf32>
  %3 = stablehlo.subtract %w, %2 : tensor<4x8xf32>
  return %3, %1 : tensor<4x8xf32>, tensor<4x8xf32>
})");
  ASSERT_TRUE(m);
  EXPECT_EQ(carried(*m), (std::vector<int64_t>{0, 1}));
}

// A matmul's output has the input's type but is not the input, updated.
TEST(CarriedState, ContractionIsNotAnUpdate) {
  auto m = parse(R"(
func.func @main(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
})");
  ASSERT_TRUE(m);
  EXPECT_EQ(carried(*m), (std::vector<int64_t>{-1}));
}

// Donation wins over the data-flow guess, and each argument is carried by
// at most one result.
TEST(CarriedState, AliasingOutputWinsAndArgumentsPairOnce) {
  auto m = parse(R"(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = stablehlo.negate %a : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
})");
  ASSERT_TRUE(m);
  EXPECT_EQ(carried(*m), (std::vector<int64_t>{1, 0}));
}

// Types must match exactly: a bf16 copy of an f32 master weight is not it.
TEST(CarriedState, TypeMustMatch) {
  auto m = parse(R"(
func.func @main(%w: tensor<4xf32>) -> tensor<4xbf16> {
  %0 = stablehlo.convert %w : (tensor<4xf32>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
})");
  ASSERT_TRUE(m);
  EXPECT_EQ(carried(*m), (std::vector<int64_t>{-1}));
}

}  // namespace
}  // namespace autopart
