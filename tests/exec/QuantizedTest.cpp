// Quantized element types against the spec's quantize / dequantize /
// dequantize_op_quantize definitions (docs/spec.md), with every answer
// worked out in the comments: q = clamp(round_nearest_even(x / scale + zp)),
// x = (q - zp) * scale.
#include <gtest/gtest.h>

#include "exec/Quantized.h"
#include "exec/Run.h"
#include "tests/TestUtil.h"
#include "tests/exec/ExpectChecks.h"

namespace autopart::exec {
namespace {

TEST(ExecQuantized, ParsesPerTensorAndPerAxisTypes) {
  QuantParams a = parseQuantType("!quant.uniform<i8:f32, 0.1:-30>");
  EXPECT_EQ(a.storage, "i8");
  EXPECT_EQ(a.storageMin, -128);
  EXPECT_EQ(a.storageMax, 127);
  EXPECT_EQ(a.expressed, "f32");
  EXPECT_EQ(a.axis, -1);
  EXPECT_EQ(a.scales, std::vector<double>{0.1});
  EXPECT_EQ(a.zeroPoints, std::vector<int64_t>{-30});
  QuantParams b = parseQuantType("!quant.uniform<u8<0:200>:bf16:1, {0.5:10, 2.0e-01}>");
  EXPECT_EQ(b.storage, "ui8");
  EXPECT_EQ(b.storageMin, 0);
  EXPECT_EQ(b.storageMax, 200);
  EXPECT_EQ(b.expressed, "bf16");
  EXPECT_EQ(b.axis, 1);
  EXPECT_EQ(b.scales, (std::vector<double>{0.5, 0.2}));
  EXPECT_EQ(b.zeroPoints, (std::vector<int64_t>{10, 0}));
  EXPECT_THROW(parseQuantType("!quant.uniform<i8:f32, -1.0>"), std::runtime_error);        // scale <= 0
  EXPECT_THROW(parseQuantType("!quant.uniform<i8:f32, {0.1, 0.2}>"), std::runtime_error);  // no axis
  EXPECT_THROW(parseQuantType("!quant.uniform<i8<5:300>:f32, 0.1>"), std::runtime_error);  // range
}

TEST(ExecQuantized, QuantizeRoundsToEvenAndClampsToTheStorageRange) {
  // scale 0.5: 0.25 -> 0.5 -> 0 (tie to even), 0.75 -> 1.5 -> 2, 100 -> 200 -> 127, -100 -> -128;
  // i8<-127:127>: -100 -> -127; u8 with zero point 10: -10 -> -10 -> 0, 0 -> 10, 1 -> 12.
  expectAllPass(R"(  %x = stablehlo.constant dense<[0.25, 0.75, 100.0, -100.0]> : tensor<4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %i = stablehlo.bitcast_convert %q : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %i, dense<[0, 2, 127, -128]> : tensor<4xi8>
  %n = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8<-127:127>:f32, 0.5>>
  %ni = stablehlo.bitcast_convert %n : (tensor<4x!quant.uniform<i8<-127:127>:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %ni, dense<[0, 2, 127, -127]> : tensor<4xi8>
  %y = stablehlo.constant dense<[-10.0, 0.0, 1.0]> : tensor<3xf32>
  %u = stablehlo.uniform_quantize %y : (tensor<3xf32>) -> tensor<3x!quant.uniform<u8:f32, 0.5:10>>
  %ui = stablehlo.bitcast_convert %u : (tensor<3x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<3xui8>
  check.expect_eq_const %ui, dense<[0, 10, 12]> : tensor<3xui8>
  %d = stablehlo.uniform_dequantize %u : (tensor<3x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<3xf32>
  check.expect_eq_const %d, dense<[-5.0, 0.0, 1.0]> : tensor<3xf32>)",
                4);
}

TEST(ExecQuantized, PerAxisParametersFollowTheQuantizationDimension) {
  // Column j of a 2x2 uses scale [1, 0.25][j], zero point [0, 4][j]:
  // [[1, 1], [2, 2]] -> [[1, 1/0.25 + 4], [2, 2/0.25 + 4]] = [[1, 8], [2, 12]].
  expectAllPass(R"(  %x = stablehlo.constant dense<[[1.0, 1.0], [2.0, 2.0]]> : tensor<2x2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.25:4}>>
  %i = stablehlo.bitcast_convert %q : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.25:4}>>) -> tensor<2x2xi8>
  check.expect_eq_const %i, dense<[[1, 8], [2, 12]]> : tensor<2x2xi8>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.25:4}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.25:4}>>
  %ti = stablehlo.bitcast_convert %t : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.25:4}>>) -> tensor<2x2xi8>
  check.expect_eq_const %ti, dense<[[1, 2], [8, 12]]> : tensor<2x2xi8>)",
                2);
}

TEST(ExecQuantized, ElementwiseOpsDequantizeComputeAndQuantize) {
  // [1, 2] at 0.1:-30 and [3, 4] at 0.5:-20; results at 0.5:-20:
  // sum [4, 6] -> [-12, -8]; product [3, 8] -> [-14, -4]; max [3, 4] -> [-14, -12].
  expectAllPass(R"(  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %qb = stablehlo.uniform_quantize %b : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %s = stablehlo.add %qa, %qb : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %si = stablehlo.bitcast_convert %s : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  check.expect_eq_const %si, dense<[-12, -8]> : tensor<2xi8>
  %p = stablehlo.multiply %qa, %qb : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %pi = stablehlo.bitcast_convert %p : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  check.expect_eq_const %pi, dense<[-14, -4]> : tensor<2xi8>
  %m = stablehlo.maximum %qa, %qb : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %mi = stablehlo.bitcast_convert %m : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  check.expect_eq_const %mi, dense<[-14, -12]> : tensor<2xi8>)",
                3);
}

TEST(ExecQuantized, ClampAndSelectQuantizeTheirResults) {
  // clamp(2, [1, 3, 5], 4) = [2, 3, 4]; at scale 2: 3 / 2 = 1.5 -> 2 (even), so q = [1, 2, 2].
  // select with a scalar predicate keeps the on_true values: q at 0.5 = [2, 6, 10].
  expectAllPass(R"(  %x = stablehlo.constant dense<[1.0, 3.0, 5.0]> : tensor<3xf32>
  %lo = stablehlo.constant dense<2.0> : tensor<f32>
  %hi = stablehlo.constant dense<4.0> : tensor<f32>
  %qx = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %ql = stablehlo.uniform_quantize %lo : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 1.0>>
  %qh = stablehlo.uniform_quantize %hi : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 1.0>>
  %c = stablehlo.clamp %ql, %qx, %qh : (tensor<!quant.uniform<i8:f32, 1.0>>, tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 1.0>>) -> tensor<3x!quant.uniform<i8:f32, 2.0>>
  %ci = stablehlo.bitcast_convert %c : (tensor<3x!quant.uniform<i8:f32, 2.0>>) -> tensor<3xi8>
  check.expect_eq_const %ci, dense<[1, 2, 2]> : tensor<3xi8>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %s = stablehlo.select %t, %qx, %qx : tensor<i1>, tensor<3x!quant.uniform<i8:f32, 0.5>>
  %si = stablehlo.bitcast_convert %s : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3xi8>
  check.expect_eq_const %si, dense<[2, 6, 10]> : tensor<3xi8>)",
                2);
}

TEST(ExecQuantized, DotGeneralQuantizedAndHybrid) {
  // [[1, 2]] . [[2], [4]] = [[10]]; at 0.25 in i32 storage q = 40. The hybrid
  // form (f32 lhs, quantized rhs, f32 result) is the plain float product.
  expectAllPass(R"(  %l = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %r = stablehlo.constant dense<[[2.0], [4.0]]> : tensor<2x1xf32>
  %ql = stablehlo.uniform_quantize %l : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5>>
  %qr = stablehlo.uniform_quantize %r : (tensor<2x1xf32>) -> tensor<2x1x!quant.uniform<i8:f32, 0.5>>
  %d = stablehlo.dot_general %ql, %qr, contracting_dims = [1] x [0] : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x!quant.uniform<i32:f32, 0.25>>
  %di = stablehlo.bitcast_convert %d : (tensor<1x1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1xi32>
  check.expect_eq_const %di, dense<40> : tensor<1x1xi32>
  %h = stablehlo.dot_general %l, %qr, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1xf32>
  check.expect_eq_const %h, dense<10.0> : tensor<1x1xf32>)",
                2);
}

TEST(ExecQuantized, ConvolutionQuantized) {
  // [1, 2, 3] * window [1, 2] (valid) = [1 + 4, 2 + 6] = [5, 8]; at 0.25: q = [20, 32].
  expectAllPass(R"(  %l = stablehlo.constant dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>
  %k = stablehlo.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %ql = stablehlo.uniform_quantize %l : (tensor<1x3x1xf32>) -> tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>
  %qk = stablehlo.uniform_quantize %k : (tensor<2x1x1xf32>) -> tensor<2x1x1x!quant.uniform<i8:f32, 0.5>>
  %c = stablehlo.convolution(%ql, %qk) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x1x!quant.uniform<i32:f32, 0.25>>
  %ci = stablehlo.bitcast_convert %c : (tensor<1x2x1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x2x1xi32>
  check.expect_eq_const %ci, dense<[[[20], [32]]]> : tensor<1x2x1xi32>)",
                1);
}

TEST(ExecQuantized, OtherOpsRefuseQuantizedOperands) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main() -> tensor<2xi8> {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  %n = stablehlo.not %q : tensor<2x!quant.uniform<i8:f32, 0.5>>
  %i = stablehlo.bitcast_convert %n : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xi8>
  return %i : tensor<2xi8>
})");
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:4:8");
  EXPECT_NE(r.functions[0].error.find("quantized operands or results are not supported by 'stablehlo.not'"),
            std::string::npos)
      << r.functions[0].error;
}

}  // namespace
}  // namespace autopart::exec
