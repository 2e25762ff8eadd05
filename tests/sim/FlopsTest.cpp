#include <gtest/gtest.h>

#include "sim/Flops.h"

#include "tests/TestUtil.h"

using namespace autopart;

namespace {

using autopart::testing::opsNamed;
using autopart::testing::parse;

// One op of each FLOP model of the op table, counted by hand.
TEST(Flops, EachFlopModelOfTheOpTable) {
  std::unique_ptr<Module> m = parse(R"(
func.func @main(%x: tensor<128x784xf32>, %w: tensor<784x512xf32>, %img: tensor<1x8x8x3xf32>,
                %k: tensor<3x3x3x16xf32>) -> tensor<128xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<128x784xf32>, tensor<784x512xf32>) -> tensor<128x512xf32>
  %1 = stablehlo.tanh %0 : tensor<128x512xf32>
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
  %3 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %4 = stablehlo.transpose %0, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
  return %2 : tensor<128xf32>
}
)");
  ASSERT_TRUE(m);
  auto flops = [&](std::string_view name) { return opFlops(*m, opsNamed(*m, name).at(0)); };
  EXPECT_DOUBLE_EQ(flops("stablehlo.dot_general"), 2.0 * 128 * 512 * 784);
  EXPECT_DOUBLE_EQ(flops("stablehlo.tanh"), 128.0 * 512);
  EXPECT_DOUBLE_EQ(flops("stablehlo.reduce"), 128.0 * 512);
  EXPECT_DOUBLE_EQ(flops("stablehlo.convolution"), 2.0 * (8 * 8 * 16) * (3 * 3) * 3);
  EXPECT_DOUBLE_EQ(flops("stablehlo.transpose"), 0);
  EXPECT_DOUBLE_EQ(flops("stablehlo.constant"), 0);
}

}  // namespace
