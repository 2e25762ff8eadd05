// A data-parallel MLP training step run per device equals the same step run
// whole. The whole step (784-style MLP, shrunk: x 8x4 -> relu 3 -> 2, squared
// error, SGD) is written in StableHLO as JAX emits it; the per-device step is
// what XLA's SPMD partitioner makes of it for batch parallelism on D devices:
// the same ops on an 8/D-row slice of x and y, the batch-summed quantities
// (loss, every gradient) all_reduce'd over the D devices before the update,
// and the mean's divisor still the global batch 8:
//
//   whole:       gW1 = dot_general(h, dout, contracting [0] x [0])   // h: 8x3
//   per device:  gW1 = all_reduce(dot_general(h, dout, ...))          // h: 2x3
//
// Both run through runModule on the same arguments; every device's updated
// parameters and loss must equal the whole program's within f32 rounding.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

constexpr int kBatch = 8;

// The step on `rows` rows of the batch; with devices > 1 the batch sums are
// all_reduce'd over replica group [0, .., devices-1].
std::string stepFunction(const std::string &name, int rows, int devices) {
  std::string B = std::to_string(rows), groups = "[", n = std::to_string(devices);
  for (int d = 0; d < devices; ++d) groups += (d ? ", " : "") + std::to_string(d);
  groups += "]";
  auto reduced = [&](const std::string &v, const std::string &type) -> std::string {
    if (devices == 1) return "";
    return "    %" + v + "_g = \"stablehlo.all_reduce\"(%" + v +
           R"() ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[)" +
           groups + "]> : tensor<1x" + n + "xi64>} : (" + type + ") -> " + type + "\n";
  };
  auto g = [&](const std::string &v) { return devices == 1 ? "%" + v : "%" + v + "_g"; };
  std::string t = "tensor<" + B;
  return "  func.func @" + name + "(%W0: tensor<4x3xf32>, %b0: tensor<3xf32>, %W1: tensor<3x2xf32>, %b1: tensor<2xf32>, %x: " +
         t + "x4xf32>, %y: " + t + "x2xf32>, %lr: tensor<f32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3x2xf32>, " +
         "tensor<2xf32>, tensor<f32>) {\n" +
         "    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n" +
         "    %scale = stablehlo.constant dense<" + std::to_string(2.0 / kBatch) + "> : " + t + "x2xf32>\n" +
         "    %inv = stablehlo.constant dense<" + std::to_string(1.0 / kBatch) + "> : tensor<f32>\n" +
         // Forward.
         "    %xw = stablehlo.dot_general %x, %W0, contracting_dims = [1] x [0] : (" + t + "x4xf32>, tensor<4x3xf32>) -> " + t + "x3xf32>\n" +
         "    %bb0 = stablehlo.broadcast_in_dim %b0, dims = [1] : (tensor<3xf32>) -> " + t + "x3xf32>\n" +
         "    %hpre = stablehlo.add %xw, %bb0 : " + t + "x3xf32>\n" +
         "    %zeros3 = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> " + t + "x3xf32>\n" +
         "    %h = stablehlo.maximum %hpre, %zeros3 : " + t + "x3xf32>\n" +
         "    %hw = stablehlo.dot_general %h, %W1, contracting_dims = [1] x [0] : (" + t + "x3xf32>, tensor<3x2xf32>) -> " + t + "x2xf32>\n" +
         "    %bb1 = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<2xf32>) -> " + t + "x2xf32>\n" +
         "    %out = stablehlo.add %hw, %bb1 : " + t + "x2xf32>\n" +
         "    %d = stablehlo.subtract %out, %y : " + t + "x2xf32>\n" +
         "    %dd = stablehlo.multiply %d, %d : " + t + "x2xf32>\n" +
         "    %sq = stablehlo.reduce(%dd init: %zero) applies stablehlo.add across dimensions = [0, 1] : (" + t + "x2xf32>, tensor<f32>) -> tensor<f32>\n" +
         "    %loss = stablehlo.multiply %sq, %inv : tensor<f32>\n" + reduced("loss", "tensor<f32>") +
         // Backward: d loss / d out = 2 (out - y) / 8.
         "    %dout = stablehlo.multiply %d, %scale : " + t + "x2xf32>\n" +
         "    %gW1 = stablehlo.dot_general %h, %dout, contracting_dims = [0] x [0] : (" + t + "x3xf32>, " + t + "x2xf32>) -> tensor<3x2xf32>\n" +
         reduced("gW1", "tensor<3x2xf32>") +
         "    %gb1 = stablehlo.reduce(%dout init: %zero) applies stablehlo.add across dimensions = [0] : (" + t + "x2xf32>, tensor<f32>) -> tensor<2xf32>\n" +
         reduced("gb1", "tensor<2xf32>") +
         "    %dh = stablehlo.dot_general %dout, %W1, contracting_dims = [1] x [1] : (" + t + "x2xf32>, tensor<3x2xf32>) -> " + t + "x3xf32>\n" +
         "    %pos = stablehlo.compare GT, %hpre, %zeros3 : (" + t + "x3xf32>, " + t + "x3xf32>) -> " + t + "x3xi1>\n" +
         "    %dhpre = stablehlo.select %pos, %dh, %zeros3 : " + t + "x3xi1>, " + t + "x3xf32>\n" +
         "    %gW0 = stablehlo.dot_general %x, %dhpre, contracting_dims = [0] x [0] : (" + t + "x4xf32>, " + t + "x3xf32>) -> tensor<4x3xf32>\n" +
         reduced("gW0", "tensor<4x3xf32>") +
         "    %gb0 = stablehlo.reduce(%dhpre init: %zero) applies stablehlo.add across dimensions = [0] : (" + t + "x3xf32>, tensor<f32>) -> tensor<3xf32>\n" +
         reduced("gb0", "tensor<3xf32>") +
         // SGD update.
         "    %lr43 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<4x3xf32>\n" +
         "    %uW0 = stablehlo.multiply %lr43, " + g("gW0") + " : tensor<4x3xf32>\n" +
         "    %nW0 = stablehlo.subtract %W0, %uW0 : tensor<4x3xf32>\n" +
         "    %lr3 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<3xf32>\n" +
         "    %ub0 = stablehlo.multiply %lr3, " + g("gb0") + " : tensor<3xf32>\n" +
         "    %nb0 = stablehlo.subtract %b0, %ub0 : tensor<3xf32>\n" +
         "    %lr32 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<3x2xf32>\n" +
         "    %uW1 = stablehlo.multiply %lr32, " + g("gW1") + " : tensor<3x2xf32>\n" +
         "    %nW1 = stablehlo.subtract %W1, %uW1 : tensor<3x2xf32>\n" +
         "    %lr2 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<2xf32>\n" +
         "    %ub1 = stablehlo.multiply %lr2, " + g("gb1") + " : tensor<2xf32>\n" +
         "    %nb1 = stablehlo.subtract %b1, %ub1 : tensor<2xf32>\n" +
         "    return %nW0, %nb0, %nW1, %nb1, " + g("loss") + " : tensor<4x3xf32>, tensor<3xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<f32>\n  }\n";
}

const char *kArgs = "%W0: tensor<4x3xf32>, %b0: tensor<3xf32>, %W1: tensor<3x2xf32>, %b1: tensor<2xf32>, "
                    "%x: tensor<8x4xf32>, %y: tensor<8x2xf32>, %lr: tensor<f32>";
const char *kResults = "tensor<4x3xf32>, tensor<3xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<f32>";

// @main(params, x, y, lr) slices x and y by rows over `devices` replicas and
// runs @step_dev on each; its results are every device's five outputs.
std::string perDeviceModule(int devices) {
  int rows = kBatch / devices;
  std::string R = std::to_string(rows), s = "module {\n" + stepFunction("step_dev", rows, devices);
  s += std::string("  func.func @main(") + kArgs + ") -> (";
  for (int d = 0; d < devices; ++d) s += (d ? ", " : "") + std::string(kResults);
  s += ") {\n";
  std::string operands, types, programs;
  for (int d = 0; d < devices; ++d) {
    std::string i = std::to_string(d), lo = std::to_string(d * rows), hi = std::to_string((d + 1) * rows);
    s += "    %x" + i + " = stablehlo.slice %x [" + lo + ":" + hi + ", 0:4] : (tensor<8x4xf32>) -> tensor<" + R + "x4xf32>\n";
    s += "    %y" + i + " = stablehlo.slice %y [" + lo + ":" + hi + ", 0:2] : (tensor<8x2xf32>) -> tensor<" + R + "x2xf32>\n";
    operands += std::string(d ? ", " : "") + "%W0, %b0, %W1, %b1, %x" + i + ", %y" + i + ", %lr";
    types += std::string(d ? ", " : "") + "tensor<4x3xf32>, tensor<3xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<" + R +
             "x4xf32>, tensor<" + R + "x2xf32>, tensor<f32>";
    programs += std::string(d ? ", " : "") + "[@step_dev]";
  }
  std::string results;
  for (int d = 0; d < devices; ++d) results += (d ? ", " : "") + std::string(kResults);
  s += "    %r:" + std::to_string(5 * devices) + " = \"interpreter.run_parallel\"(" + operands + ") {programs = [" +
       programs + "]} : (" + types + ") -> (" + results + ")\n    return ";
  for (int k = 0; k < 5 * devices; ++k) s += (k ? ", %r#" : "%r#") + std::to_string(k);
  s += " : ";
  for (int d = 0; d < devices; ++d) s += (d ? ", " : "") + std::string(kResults);
  return s + "\n  }\n}\n";
}

std::vector<TensorPtr> runMain(const std::string &text, const std::vector<TensorPtr> &args) {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) {
    ADD_FAILURE() << "does not parse:\n" << text;
    return {};
  }
  RunResult r = runModule(*m, {"main", "random", 0, args});
  if (r.functions.size() != 1 || r.functions[0].failed) {
    ADD_FAILURE() << (r.functions.empty() ? "no function ran" : r.functions[0].error) << "\n" << text;
    return {};
  }
  return r.functions[0].results;
}

void expectPerDeviceEqualsWhole(int devices, uint64_t seed) {
  std::string whole = "module {\n" + stepFunction("main", kBatch, 1) + "}\n";
  std::unique_ptr<Module> wm = testing::parse(whole);
  ASSERT_TRUE(wm) << whole;
  OpId mainFn = wm->lookupSymbol("main");
  ASSERT_NE(mainFn, kNone);
  std::vector<TensorPtr> args;
  uint64_t k = 0;
  for (ValueId a : FuncView{*wm, mainFn}.args()) args.push_back(randomTensor(wm->types, wm->type(a), seed * 7919 + k++));
  // A small positive learning rate, so the update is a step, not a jump.
  args.back()->data<float>()[0] = 0.05f;

  std::vector<TensorPtr> want = runMain(whole, args);
  std::vector<TensorPtr> got = runMain(perDeviceModule(devices), args);
  ASSERT_EQ(want.size(), 5u);
  ASSERT_EQ(got.size(), 5u * size_t(devices));
  const char *names[] = {"W0", "b0", "W1", "b1", "loss"};
  for (int d = 0; d < devices; ++d)
    for (size_t j = 0; j < 5; ++j) {
      const Tensor &w = *want[j], &g = *got[size_t(d) * 5 + j];
      ASSERT_EQ(w.shape, g.shape);
      for (int64_t e = 0; e < w.numElements(); ++e) {
        float a = w.data<float>()[e], b = g.data<float>()[e];
        EXPECT_NEAR(a, b, 1e-5f * std::max(1.0f, std::fabs(a)))
            << "device " << d << " " << names[j] << "[" << e << "] with " << devices << " devices";
      }
    }
  // The step changed the parameters (the comparison is not of inputs).
  EXPECT_NE(want[0]->data<float>()[0], args[0]->data<float>()[0]);
}

TEST(ExecDataParallel, MlpStepOnTwoDevicesEqualsWhole) {
  expectPerDeviceEqualsWhole(2, 1);
  expectPerDeviceEqualsWhole(2, 2);
}

TEST(ExecDataParallel, MlpStepOnFourDevicesEqualsWhole) {
  expectPerDeviceEqualsWhole(4, 1);
  expectPerDeviceEqualsWhole(4, 3);
}

}  // namespace
}  // namespace autopart::exec
