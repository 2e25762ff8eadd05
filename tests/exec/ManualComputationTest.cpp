#include <gtest/gtest.h>

#include <cmath>

#include "asm/Parser.h"
#include "exec/DenseLiteral.h"
#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

std::vector<float> values(const Tensor &t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numElements()); }

// Runs @main on the given literals (f32 tensors written as `dense<...>` bodies).
std::vector<TensorPtr> runMain(const std::string &text, const std::vector<std::string> &args) {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return {};
  OpId f = m->lookupSymbol("main");
  std::vector<TensorPtr> in;
  for (size_t i = 0; i < args.size(); ++i) {
    TensorPtr like = makeTensorOfType(m->types, m->type(FuncView{*m, f}.args()[i]));
    in.push_back(decodeDense(args[i], like->dtype, like->shape));
  }
  Interpreter I(*m);
  return I.callFunction(f, in);
}

// A psum over "x" of a [{"x"}, {}] operand on mesh x=2, y=2 (device id 2x+y):
// devices (0, y) hold rows 0-1, devices (1, y) rows 2-3; the x-groups are
// {0, 2} and {1, 3}; the replicated result is rows 0-1 + rows 2-3.
TEST(ExecManualComputation, PsumOverOneAxisOfTwo) {
  std::vector<TensorPtr> r = runMain(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%l: tensor<2x2xf32>) {
    %s = "stablehlo.all_reduce"(%l) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    sdy.return %s : tensor<2x2xf32>
  } : (tensor<4x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})",
                                     {"[[1, 2], [3, 4], [10, 20], [30, 40]]"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(*r[0]), (std::vector<float>{11, 22, 33, 44}));
}

// Each device returns its partition id; out_shardings [{"x"}, {"y"}] put
// device 2x+y's piece at [x, y].
TEST(ExecManualComputation, ResultsAreAssembledByOutShardings) {
  std::vector<TensorPtr> r = runMain(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main() -> tensor<2x2xf32> {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} () {
    %id = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.reshape %f : (tensor<f32>) -> tensor<1x1xf32>
    sdy.return %b : tensor<1x1xf32>
  } : () -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})",
                                     {});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(*r[0]), (std::vector<float>{0, 1, 2, 3}));
}

// Only "x" is manual: the body sees halves along x, and the copies along the
// free axis y compute the same piece; the one at y = 0 is read back.
TEST(ExecManualComputation, FreeAxesRunCopiesOfTheSamePiece) {
  std::vector<TensorPtr> r = runMain(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
    %id = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %s = stablehlo.add %l, %b : tensor<2xf32>
    sdy.return %s : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})",
                                     {"[1, 2, 3, 4]"});
  ASSERT_EQ(r.size(), 1u);
  // Device 0 (x=0, y=0) adds 0 to [1, 2]; device 2 (x=1, y=0) adds 2 to [3, 4].
  EXPECT_EQ(values(*r[0]), (std::vector<float>{1, 2, 5, 6}));
}

// A sub-axis "x":(1)2 of x=4 splits by the major half of x: devices 0, 1 get
// piece 0 and devices 2, 3 piece 1; devices 0 and 2 are read back.
TEST(ExecManualComputation, SubAxesSplitByTheirPartOfTheAxis) {
  std::vector<TensorPtr> r = runMain(R"(sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x":(1)2}]>] out_shardings=[<@mesh, [{"x":(1)2}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
    %id = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %s = stablehlo.multiply %l, %b : tensor<2xf32>
    sdy.return %s : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})",
                                     {"[1, 2, 3, 4]"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(values(*r[0]), (std::vector<float>{0, 0, 6, 8}));
}

TEST(ExecManualComputation, AnUnevenSplitIsALocatedError) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%l: tensor<3xf32>) {
    sdy.return %l : tensor<3xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:3:8");
  EXPECT_NE(r.functions[0].error.find("not 2 pieces of 3"), std::string::npos) << r.functions[0].error;
}

// The pipeline-parallel MLP of ../shared/models (JAX shard_map over mesh
// stages=2, y=4: collective_permutes between stages and a psum of the loss)
// against the same MLP written as one unsharded program: the four hidden
// layers in order, then the mean squared error over all 32 rows.
const char *kUnshardedMlpLoss = R"(func.func @main(%w0: tensor<784x128xf32>, %b0: tensor<128xf32>, %ws: tensor<4x128x128xf32>, %bs: tensor<4x128xf32>, %w4: tensor<128x8xf32>, %b4: tensor<8xf32>, %x: tensor<32x784xf32>, %y: tensor<32x8xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
  %m0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<32x784xf32>, tensor<784x128xf32>) -> tensor<32x128xf32>
  %bb0 = stablehlo.broadcast_in_dim %b0, dims = [1] : (tensor<128xf32>) -> tensor<32x128xf32>
  %a0 = stablehlo.add %m0, %bb0 : tensor<32x128xf32>
  %h0 = stablehlo.maximum %a0, %zb : tensor<32x128xf32>
  %ws0 = stablehlo.slice %ws [0:1, 0:128, 0:128] : (tensor<4x128x128xf32>) -> tensor<1x128x128xf32>
  %w0r = stablehlo.reshape %ws0 : (tensor<1x128x128xf32>) -> tensor<128x128xf32>
  %bs0 = stablehlo.slice %bs [0:1, 0:128] : (tensor<4x128xf32>) -> tensor<1x128xf32>
  %b0r = stablehlo.broadcast_in_dim %bs0, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<32x128xf32>
  %m1 = stablehlo.dot_general %h0, %w0r, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %a1 = stablehlo.add %m1, %b0r : tensor<32x128xf32>
  %h1 = stablehlo.maximum %a1, %zb : tensor<32x128xf32>
  %ws1 = stablehlo.slice %ws [1:2, 0:128, 0:128] : (tensor<4x128x128xf32>) -> tensor<1x128x128xf32>
  %w1r = stablehlo.reshape %ws1 : (tensor<1x128x128xf32>) -> tensor<128x128xf32>
  %bs1 = stablehlo.slice %bs [1:2, 0:128] : (tensor<4x128xf32>) -> tensor<1x128xf32>
  %b1r = stablehlo.broadcast_in_dim %bs1, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<32x128xf32>
  %m2 = stablehlo.dot_general %h1, %w1r, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %a2 = stablehlo.add %m2, %b1r : tensor<32x128xf32>
  %h2 = stablehlo.maximum %a2, %zb : tensor<32x128xf32>
  %ws2 = stablehlo.slice %ws [2:3, 0:128, 0:128] : (tensor<4x128x128xf32>) -> tensor<1x128x128xf32>
  %w2r = stablehlo.reshape %ws2 : (tensor<1x128x128xf32>) -> tensor<128x128xf32>
  %bs2 = stablehlo.slice %bs [2:3, 0:128] : (tensor<4x128xf32>) -> tensor<1x128xf32>
  %b2r = stablehlo.broadcast_in_dim %bs2, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<32x128xf32>
  %m3 = stablehlo.dot_general %h2, %w2r, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %a3 = stablehlo.add %m3, %b2r : tensor<32x128xf32>
  %h3 = stablehlo.maximum %a3, %zb : tensor<32x128xf32>
  %ws3 = stablehlo.slice %ws [3:4, 0:128, 0:128] : (tensor<4x128x128xf32>) -> tensor<1x128x128xf32>
  %w3r = stablehlo.reshape %ws3 : (tensor<1x128x128xf32>) -> tensor<128x128xf32>
  %bs3 = stablehlo.slice %bs [3:4, 0:128] : (tensor<4x128xf32>) -> tensor<1x128xf32>
  %b3r = stablehlo.broadcast_in_dim %bs3, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<32x128xf32>
  %m4 = stablehlo.dot_general %h3, %w3r, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %a4 = stablehlo.add %m4, %b3r : tensor<32x128xf32>
  %h4 = stablehlo.maximum %a4, %zb : tensor<32x128xf32>
  %o = stablehlo.dot_general %h4, %w4, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x8xf32>) -> tensor<32x8xf32>
  %b4b = stablehlo.broadcast_in_dim %b4, dims = [1] : (tensor<8xf32>) -> tensor<32x8xf32>
  %ob = stablehlo.add %o, %b4b : tensor<32x8xf32>
  %d = stablehlo.subtract %ob, %y : tensor<32x8xf32>
  %sq = stablehlo.multiply %d, %d : tensor<32x8xf32>
  %s = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x8xf32>, tensor<f32>) -> tensor<f32>
  %n = stablehlo.constant dense<32.0> : tensor<f32>
  %l = stablehlo.divide %s, %n : tensor<f32>
  return %l : tensor<f32>
})";

TEST(ExecManualComputation, PipelineLossEqualsTheUnshardedLoss) {
  std::string path = std::string(AUTOPART_SHARED_DIR) + "/models/jax_mlp_pipeline_loss.mlir";
  std::string text;
  Diagnostics diags;
  if (!readFile(path, text, diags)) GTEST_SKIP() << "no " << path;
  std::unique_ptr<Module> pipeline = testing::parse(text, path);
  std::unique_ptr<Module> whole = testing::parse(kUnshardedMlpLoss);
  ASSERT_TRUE(pipeline && whole);
  for (uint64_t seed : {0u, 1u}) {
    RunResult a = runModule(*pipeline, {"main", "random", seed, {}});
    RunResult b = runModule(*whole, {"main", "random", seed, {}});
    ASSERT_EQ(a.functions.size(), 1u);
    ASSERT_EQ(b.functions.size(), 1u);
    ASSERT_FALSE(a.functions[0].failed) << a.functions[0].error;
    ASSERT_FALSE(b.functions[0].failed) << b.functions[0].error;
    float x = a.functions[0].results[0]->data<float>()[0], y = b.functions[0].results[0]->data<float>()[0];
    EXPECT_NEAR(x, y, 1e-5 * std::abs(y)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace autopart::exec
