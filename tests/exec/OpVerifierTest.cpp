// The executor's op verifier (exec/OpVerifier.h): each test is a minimised
// program the executor fuzzer (docs/fuzzing.md) or a reading of a kernel
// found reading or writing past a buffer (a crash, or garbage results);
// each must now be a located error naming the op, before the kernel runs.
// The last test runs valid programs of every family the verifier checks, so
// that a check stricter than StableHLO's spec shows up here too.
#include <gtest/gtest.h>

#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

// `text`'s @main, run on zeros, fails at `where` with an error containing `message`.
void expectRejected(const std::string &text, const std::string &where, const std::string &message) {
  std::unique_ptr<Module> m = testing::parse(text);
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {"main", "zeros", 0, {}});
  ASSERT_EQ(r.functions.size(), 1u);
  ASSERT_TRUE(r.functions[0].failed) << "ran without an error";
  EXPECT_EQ(m->where(r.functions[0].errorOp), where) << r.functions[0].error;
  EXPECT_NE(r.functions[0].error.find(message), std::string::npos) << r.functions[0].error;
}

TEST(ExecOpVerifier, GatherStartIndexMapOutsideTheOperand) {
  expectRejected(R"(func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [100000], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
})",
                 "t.mlir:2:8", "stablehlo.gather: start_index_map [100000]: 100000 is not in [0, 2)");
}

TEST(ExecOpVerifier, GatherOffsetDimsMustBeSorted) {
  expectRejected(R"(func.func @main(%x: tensor<3x4x5xf32>, %i: tensor<2x1xi64>) -> tensor<2x4x5xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4, 5>} : (tensor<3x4x5xf32>, tensor<2x1xi64>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
})",
                 "t.mlir:2:8", "stablehlo.gather: offset_dims [2, 1] must be sorted");
}

TEST(ExecOpVerifier, GatherCollapsedDimOutsideTheOperand) {
  expectRejected(R"(func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [100000], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
})",
                 "t.mlir:2:8", "stablehlo.gather: collapsed_slice_dims [100000]: 100000 is not in [0, 2)");
}

TEST(ExecOpVerifier, DynamicGatherIndexVectorDimOutsideTheIndices) {
  expectRejected(R"(func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %s = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %0 = "stablehlo.dynamic_gather"(%x, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 100000>} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
})",
                 "t.mlir:3:8", "stablehlo.dynamic_gather: index_vector_dim 100000 is not in [0, 2]");
}

TEST(ExecOpVerifier, DynamicGatherOffsetDimOutsideTheResult) {
  expectRejected(R"(func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %s = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %0 = "stablehlo.dynamic_gather"(%x, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [4], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
})",
                 "t.mlir:3:8", "stablehlo.dynamic_gather: offset_dims [4]: 4 is not in [0, 2)");
}

TEST(ExecOpVerifier, ScatterInsertedWindowDimNegative) {
  expectRejected(R"(func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [-1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
})",
                 "t.mlir:2:8", "stablehlo.scatter: inserted_window_dims [-1]: -1 is not in [0, 2)");
}

TEST(ExecOpVerifier, ScatterDimsToOperandDimsOutsideTheInput) {
  expectRejected(R"(func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [100000], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
})",
                 "t.mlir:2:8", "stablehlo.scatter: scatter_dims_to_operand_dims [100000]: 100000 is not in [0, 2)");
}

TEST(ExecOpVerifier, SliceLimitBelowStart) {
  expectRejected(R"(func.func @main(%x: tensor<4x6xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 0, 2>, limit_indices = array<i64: 2, 0>, strides = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})",
                 "t.mlir:2:8", "stablehlo.slice: limit 0 of dimension 1 is not in [2, 6]");
}

TEST(ExecOpVerifier, BroadcastInDimDimensionOutsideTheResult) {
  expectRejected(R"(func.func @main(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [7] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})",
                 "t.mlir:2:8", "stablehlo.broadcast_in_dim: broadcast_dimensions [7]: 7 is not in [0, 2)");
}

TEST(ExecOpVerifier, SelectBranchesDifferInShape) {
  expectRejected(R"(func.func @main(%p: tensor<1000xi1>, %x: tensor<f32>, %y: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = "stablehlo.select"(%p, %x, %y) : (tensor<1000xi1>, tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
})",
                 "t.mlir:2:8", "stablehlo.select: on_true and on_false differ in shape");
}

TEST(ExecOpVerifier, DotGeneralDimensionBothBatchingAndContracting) {
  expectRejected(R"(func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
})",
                 "t.mlir:2:8", "stablehlo.dot_general: lhs batching and contracting dimensions [0, 0]: 0 appears twice");
}

TEST(ExecOpVerifier, ReduceWindowZeroBaseDilation) {
  expectRejected(R"(func.func @main(%x: tensor<4xi32>) -> tensor<3xi32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 0>} : (tensor<4xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
})",
                 "t.mlir:3:8", "stablehlo.reduce_window: base_dilations [0] must be positive");
}

TEST(ExecOpVerifier, WhileConditionMustReturnAScalarPredicate) {
  expectRejected(R"(func.func @main() -> tensor<i64> {
  %c = stablehlo.constant dense<0> : tensor<i64>
  %0 = stablehlo.while(%i = %c) : tensor<i64>
  cond {
    %p = stablehlo.constant dense<> : tensor<0xi1>
    stablehlo.return %p : tensor<0xi1>
  } do {
    stablehlo.return %i : tensor<i64>
  }
  return %0 : tensor<i64>
})",
                 "t.mlir:3:8", "stablehlo.while: region #0 must return (tensor<i1>)");
}

TEST(ExecOpVerifier, ReduceBodyPromotingTheElementTypeIsUnsupported) {
  expectRejected(R"(func.func @main(%x: tensor<8xi8>) -> tensor<i64> {
  %z = stablehlo.constant dense<0> : tensor<i8>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<8xi8>, tensor<i8>) -> tensor<i64>
   reducer(%a: tensor<i64>, %b: tensor<i64>) {
    %s = stablehlo.multiply %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }
  return %0 : tensor<i64>
})",
                 "t.mlir:3:8", "stablehlo.reduce: result #0 is tensor<i64>: a body that promotes i8 to a wider type is not supported");
}

TEST(ExecOpVerifier, CallArgumentOfTheWrongType) {
  expectRejected(R"(func.func private @f(%a: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = stablehlo.add %a, %a : tensor<1000xf32>
  return %0 : tensor<1000xf32>
}
func.func @main(%x: tensor<2xf32>) -> tensor<1000xf32> {
  %0 = func.call @f(%x) : (tensor<2xf32>) -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
})",
                 "t.mlir:6:8", "func.call: @f takes tensor<1000xf32> as argument #0, not tensor<2xf32>");
}

TEST(ExecOpVerifier, IfBranchReturnsTheWrongType) {
  expectRejected(R"(func.func @main(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<1000xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<2xf32>
  }, {
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<1000xf32>
  %1 = stablehlo.add %0, %0 : tensor<1000xf32>
  return %1 : tensor<1000xf32>
})",
                 "t.mlir:2:8", "stablehlo.if: region #0 returns tensor<2xf32> as value #0, expected tensor<1000xf32>");
}

TEST(ExecOpVerifier, ElementwiseResultShapeDiffersFromTheOperand) {
  expectRejected(R"(func.func @main(%x: tensor<5xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %x : (tensor<5xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})",
                 "t.mlir:2:8", "stablehlo.tanh: result #0 is tensor<4xf32>, its shape must be [5]");
}

TEST(ExecOpVerifier, TopKAboveTheLastDimension) {
  expectRejected(R"(func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x1000xf32>, tensor<2x1000xi32>) {
  %0:2 = chlo.top_k(%x, k = 1000) : tensor<2x3xf32> -> (tensor<2x1000xf32>, tensor<2x1000xi32>)
  return %0#0, %0#1 : tensor<2x1000xf32>, tensor<2x1000xi32>
})",
                 "t.mlir:2:10", "chlo.top_k: k = 1000 is not in [0, 3]");
}

// Found by UBSan in the verifier itself: the padded size overflowed int64.
TEST(ExecOpVerifier, PadSizeBeyondInt64) {
  expectRejected(R"(func.func @main(%x: tensor<2xi64>) -> tensor<3xi64> {
  %p = stablehlo.constant dense<0> : tensor<i64>
  %0 = stablehlo.pad %x, %p, low = [9223372036854775807], high = [1], interior = [0] : (tensor<2xi64>, tensor<i64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
})",
                 "t.mlir:3:8", "stablehlo.pad: padding makes dimension 0 negative or larger than 64 bits hold");
}

// Valid uses of the checked families: gather with batching dimensions,
// scatter, a padded and dilated convolution, a strided slice, pad with
// negative and interior padding, a windowed reduction, sort, while.
TEST(ExecOpVerifier, ValidProgramsPass) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main() {
  %x = stablehlo.iota dim = 0 : tensor<2x3x4xf32>
  %i = stablehlo.constant dense<[[[0], [2]], [[1], [0]]]> : tensor<2x2x1xi64>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x2x1xi64>) -> tensor<2x2x4xf32>
  %si = stablehlo.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %u = stablehlo.constant dense<1.0> : tensor<2x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<3x4xf32>
  %s = "stablehlo.scatter"(%z, %si, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %img = stablehlo.constant dense<1.0> : tensor<1x5x5x2xf32>
  %ker = stablehlo.constant dense<1.0> : tensor<3x3x1x4xf32>
  %c = stablehlo.convolution(%img, %ker) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32>
  %sl = stablehlo.slice %x [0:2, 1:3:2, 0:4:3] : (tensor<2x3x4xf32>) -> tensor<2x1x2xf32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %x, %pv, low = [0, -1, 1], high = [1, 0, 0], interior = [0, 1, 0] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3x4x5xf32>
  %rw = "stablehlo.reduce_window"(%x, %pv) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2>, window_strides = array<i64: 1, 1, 2>, base_dilations = array<i64: 1, 2, 1>, padding = dense<[[0, 0], [1, 0], [0, 1]]> : tensor<3x2xi64>} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x5x2xf32>
  %so = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %w = stablehlo.while(%k = %zero) : tensor<i64>
  cond {
    %three = stablehlo.constant dense<3> : tensor<i64>
    %lt = stablehlo.compare LT, %k, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %k, %one : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }
  check.expect_eq_const %w, dense<3> : tensor<i64>
  func.return
})");
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {"main", "zeros", 0, {}});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_FALSE(r.functions[0].failed) << m->where(r.functions[0].errorOp) << ": " << r.functions[0].error;
  EXPECT_TRUE(r.ok());
}

}  // namespace
}  // namespace autopart::exec
