// The StableHLO pretty forms JAX and the StableHLO tests write: each is read
// into the op's real attributes (checked in the generic form), printed back in
// StableHLO's own form, and is a fixed point.
#include <gtest/gtest.h>

#include "tests/asm/FormCheck.h"

using namespace autopart;
using autopart::testing::expectForm;

namespace {


TEST(StablehloFormsTest, DynamicBroadcastInDimHasDims) {
  expectForm("%a: tensor<2x3xf32>, %s: tensor<3xi64>",
             "  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1, 2] "
             "{known_expanding_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xi64>) -> "
             "tensor<?x?x?xf32>",
             "stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] "
             "{known_expanding_dimensions = array<i64: 1>} :",
             "<{broadcast_dimensions = array<i64: 1, 2>, known_expanding_dimensions = array<i64: 1>}>");
}

TEST(StablehloFormsTest, DynamicBroadcastInDimFromGenericPrintsPretty) {
  expectForm("%a: tensor<3x1xi64>, %s: tensor<3xi64>",
             "  %0 = \"stablehlo.dynamic_broadcast_in_dim\"(%a, %s) {broadcast_dimensions = "
             "array<i64: 0, 2>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>",
             "stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [0, 2] : ",
             "broadcast_dimensions = array<i64: 0, 2>");
}

TEST(StablehloFormsTest, DynamicIotaReadsIotaDimension) {
  expectForm("%s: tensor<2xi64>",
             "  %0 = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<?x?xf32>",
             "stablehlo.dynamic_iota %arg0, dim = 1 : (tensor<2xi64>) -> tensor<?x?xf32>",
             "iota_dimension = 1 : i64");
}

TEST(StablehloFormsTest, SetDimensionSizeReadsDimension) {
  expectForm("%a: tensor<4x2xf32>, %n: tensor<i32>",
             "  %0 = stablehlo.set_dimension_size %a, %n, dim = 1 : (tensor<4x2xf32>, tensor<i32>) -> "
             "tensor<4x?xf32>",
             "stablehlo.set_dimension_size %arg0, %arg1, dim = 1 :", "dimension = 1 : i64");
}

TEST(StablehloFormsTest, BroadcastReadsSizes) {
  expectForm("%a: tensor<3xi32>",
             "  %0 = stablehlo.broadcast %a, sizes = [1, 2] : (tensor<3xi32>) -> tensor<1x2x3xi32>",
             "stablehlo.broadcast %arg0, sizes = [1, 2] :", "broadcast_sizes = array<i64: 1, 2>");
}

TEST(StablehloFormsTest, DynamicShapeOpsWithFunctionalTypeAreUnderstood) {
  expectForm("%a: tensor<?x?xf32>, %v: tensor<f32>, %i: tensor<2xi64>",
             "  %0 = stablehlo.dynamic_pad %a, %v, %i, %i, %i : (tensor<?x?xf32>, tensor<f32>, "
             "tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>\n"
             "  %1 = stablehlo.real_dynamic_slice %a, %i, %i, %i : (tensor<?x?xf32>, tensor<2xi64>, "
             "tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>",
             "stablehlo.real_dynamic_slice %arg0, %arg2, %arg2, %arg2 :",
             "\"stablehlo.dynamic_pad\"(%arg0, %arg1, %arg2, %arg2, %arg2) : (");
}

TEST(StablehloFormsTest, EinsumReadsConfig) {
  expectForm("%a: tensor<4x16xf32>, %b: tensor<16x4xf32>",
             "  %0 = stablehlo.einsum %a, %b, config = \"ab,bc->ac\" : (tensor<4x16xf32>, "
             "tensor<16x4xf32>) -> tensor<4x4xf32>\n"
             "  %1 = stablehlo.unary_einsum %a, config = \"ab->a\" : (tensor<4x16xf32>) -> "
             "tensor<4xf32>",
             "stablehlo.unary_einsum %arg0, config = \"ab->a\" :",
             "einsum_config = \"ab,bc->ac\"");
}

TEST(StablehloFormsTest, RngReadsDistribution) {
  expectForm("%a: tensor<f32>, %s: tensor<2xi64>",
             "  %0 = stablehlo.rng %a, %a, %s, distribution = NORMAL : (tensor<f32>, tensor<f32>, "
             "tensor<2xi64>) -> tensor<3x3xf32>",
             "stablehlo.rng %arg0, %arg0, %arg1, distribution =  NORMAL :",
             "rng_distribution = #stablehlo<rng_distribution NORMAL>");
}

TEST(StablehloFormsTest, TraceAndCreateToken) {
  expectForm("%a: tensor<5xi32>",
             "  stablehlo.trace %a, \"In test code.\" : tensor<5xi32>\n"
             "  %t = stablehlo.create_token : !stablehlo.token",
             "stablehlo.trace %arg0, \"In test code.\" : tensor<5xi32>", "tag = \"In test code.\"");
}

TEST(StablehloFormsTest, CholeskyTakesSameTypeShorthand) {
  expectForm("%a: tensor<3x3xf32>", "  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>",
             "stablehlo.cholesky %arg0, lower = true : tensor<3x3xf32>", "lower = true");
}

TEST(StablehloFormsTest, UniformQuantizeTakesSameTypeShorthand) {
  expectForm("%a: tensor<2x!quant.uniform<i8:f32, 0.1:-30>>",
             "  %0 = stablehlo.uniform_quantize %a : tensor<2x!quant.uniform<i8:f32, 0.1:-30>>",
             "stablehlo.uniform_quantize %arg0 : tensor<2x!quant.uniform<i8:f32, 0.1:-30>>",
             "(tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>");
}

TEST(StablehloFormsTest, GatherKeepsQuantizedElementTypes) {
  expectForm("%a: tensor<3x4x!quant.uniform<i8:f32, 0.1:-30>>, %i: tensor<2x1xi64>",
             "  %0 = \"stablehlo.gather\"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = "
             "[1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
             "slice_sizes = array<i64: 1, 4>} : (tensor<3x4x!quant.uniform<i8:f32, 0.1:-30>>, "
             "tensor<2x1xi64>) -> tensor<2x4x!quant.uniform<i8:f32, 0.1:-30>>",
             "-> tensor<2x4x!quant.uniform<i8:f32, 0.1:-30>>", "slice_sizes = array<i64: 1, 4>");
}

TEST(StablehloFormsTest, ComplexPrintsResultTypeOnly) {
  expectForm("%a: tensor<4xf32>",
             "  %0 = \"stablehlo.complex\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> "
             "tensor<4xcomplex<f32>>",
             "stablehlo.complex %arg0, %arg0 : tensor<4xcomplex<f32>>",
             ": (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>");
}

TEST(StablehloFormsTest, CustomCallTargetThatIsNoIdentifierIsQuoted) {
  expectForm("%a: tensor<4xf32>",
             "  %0 = \"stablehlo.custom_call\"(%a) {call_target_name = \"foo-not-id\"} : "
             "(tensor<4xf32>) -> tensor<4xf32>",
             "stablehlo.custom_call @\"foo-not-id\"(%arg0) :", "call_target_name = \"foo-not-id\"");
}

TEST(StablehloFormsTest, OptimizationBarrierWithoutOperandsPrintsParens) {
  // A bare `stablehlo.optimization_barrier` would read the next op's result
  // name as its operand.
  expectForm("%a: tensor<4xf32>",
             "  \"stablehlo.optimization_barrier\"() : () -> ()\n"
             "  %0 = stablehlo.abs %a : tensor<4xf32>",
             "stablehlo.optimization_barrier()\n    %0 = stablehlo.abs", "() : () -> ()");
}

TEST(StablehloFormsTest, DenseIntegerListsPrintAsLists) {
  autopart::testing::PrintedForms p = autopart::testing::printForms(
      "func.func @f(%x: tensor<1x6xi32>) {\n"
      "  %0 = \"stablehlo.slice\"(%x) {start_indices = dense<[0, 2]> : tensor<2xi64>, "
      "limit_indices = dense<[1, 4]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} : "
      "(tensor<1x6xi32>) -> tensor<1x2xi32>\n"
      "  %1 = \"stablehlo.transpose\"(%x) {permutation = dense<[1, 0]> : tensor<2xi64>} : "
      "(tensor<1x6xi32>) -> tensor<6x1xi32>\n"
      "  return\n}\n");
  EXPECT_NE(p.pretty.find("stablehlo.slice %arg0 [0:1, 2:4] :"), std::string::npos) << p.pretty;
  EXPECT_NE(p.pretty.find("stablehlo.transpose %arg0, dims = [1, 0] :"), std::string::npos) << p.pretty;
  // Read as the i64 arrays StableHLO holds now, so the printed form means the
  // same program.
  EXPECT_NE(p.generic.find("start_indices = array<i64: 0, 2>"), std::string::npos) << p.generic;
  EXPECT_NE(p.generic.find("strides = array<i64: 1, 1>"), std::string::npos) << p.generic;
  EXPECT_NE(p.generic.find("permutation = array<i64: 1, 0>"), std::string::npos) << p.generic;
  EXPECT_EQ(autopart::testing::printForms(p.pretty).pretty, p.pretty);
  EXPECT_EQ(autopart::testing::printForms(p.pretty).generic, p.generic);
}

TEST(StablehloFormsTest, ConvolutionDenseBooleanReversalPrintsEveryFlag) {
  autopart::testing::PrintedForms p = autopart::testing::printForms(
      "func.func @f(%l: tensor<1x4x4x1xf32>, %r: tensor<3x3x1x1xf32>) {\n"
      "  %0 = \"stablehlo.convolution\"(%l, %r) {window_strides = dense<1> : tensor<2xi64>, "
      "window_reversal = dense<false> : tensor<2xi1>, dimension_numbers = "
      "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, "
      "batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> "
      "tensor<1x2x2x1xf32>\n  return\n}\n");
  EXPECT_NE(p.pretty.find("window = {stride = [1, 1], reverse = [false, false]}"), std::string::npos)
      << p.pretty;
  EXPECT_NE(p.generic.find("window_reversal = array<i1: false, false>"), std::string::npos) << p.generic;
  EXPECT_EQ(autopart::testing::printForms(p.pretty).pretty, p.pretty);
  EXPECT_EQ(autopart::testing::printForms(p.pretty).generic, p.generic);
}

TEST(StablehloFormsTest, ConvolutionEqualPaddingIsASplat) {
  autopart::testing::PrintedForms p = autopart::testing::printForms(
      "func.func @f(%l: tensor<1x4x4x1xf32>, %r: tensor<3x3x1x1xf32>) {\n"
      "  %0 = \"stablehlo.convolution\"(%l, %r) {padding = dense<1> : tensor<2x2xi64>, "
      "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, "
      "feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, "
      "tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32>\n  return\n}\n");
  EXPECT_NE(p.pretty.find("window = {pad = [[1, 1], [1, 1]]}"), std::string::npos) << p.pretty;
  EXPECT_EQ(autopart::testing::printForms(p.pretty).generic, p.generic);
}

}  // namespace
