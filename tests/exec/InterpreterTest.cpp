#include <gtest/gtest.h>

#include <random>

#include "tests/TestUtil.h"
#include "exec/Run.h"

namespace autopart::exec {
namespace {

RunResult run(const std::string &text, const std::string &entry = "") {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return {};
  return runModule(*m, {entry, "zeros", 0, {}});
}

TEST(ExecInterpreter, NarrowIntegersWrapAndChecksCount) {
  RunResult r = run(R"(func.func @f() {
  %0 = stablehlo.constant dense<[7, -8, 3]> : tensor<3xi4>
  %1 = stablehlo.constant dense<[1, -1, 2]> : tensor<3xi4>
  %2 = stablehlo.add %0, %1 : tensor<3xi4>
  check.expect_eq_const %2, dense<[-8, 7, 5]> : tensor<3xi4>
  %3 = stablehlo.constant dense<[200, 100]> : tensor<2xui8>
  %4 = stablehlo.multiply %3, %3 : tensor<2xui8>
  check.expect_eq_const %4, dense<[64, 16]> : tensor<2xui8>
  func.return
})");
  EXPECT_EQ(r.checksTotal, 2);
  EXPECT_EQ(r.checksPassed, 2);
  EXPECT_TRUE(r.ok());
}

TEST(ExecInterpreter, AFailedCheckIsRecordedWithItsOp) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @f() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const %0, dense<[1.0, 2.5]> : tensor<2xf32>
  func.return
})");
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(m->where(r.failures[0].op), "t.mlir:3:3");
  EXPECT_NE(r.failures[0].message.find("element 1"), std::string::npos);
  EXPECT_FALSE(r.ok());
}

TEST(ExecInterpreter, AnUnsupportedOpIsALocatedErrorNotAnAnswer) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @mystery(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})");
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:2:8");
  EXPECT_NE(r.functions[0].error.find("mystery"), std::string::npos);
}

// dot_general through Eigen against a direct triple loop, with batching and
// contracting dimensions in unusual places.
TEST(ExecInterpreter, DotGeneralMatchesADirectSum) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%a: tensor<3x2x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<3x2x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
})");
  OpId f = m->lookupSymbol("main");
  TensorPtr a = randomTensor(m->types, m->type(FuncView{*m, f}.args()[0]), 1);
  TensorPtr b = randomTensor(m->types, m->type(FuncView{*m, f}.args()[1]), 2);
  Interpreter I(*m);
  TensorPtr r = I.callFunction(f, {a, b})[0];
  for (int bt = 0; bt < 2; ++bt)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        double s = 0;
        for (int k = 0; k < 4; ++k) s += double(a->data<float>()[i * 8 + bt * 4 + k]) * b->data<float>()[bt * 20 + k * 5 + j];
        EXPECT_NEAR(r->data<float>()[bt * 15 + i * 5 + j], s, 1e-4);
      }
}

// The im2col convolution against the definition, with padding, strides,
// both dilations and feature groups.
TEST(ExecInterpreter, ConvolutionMatchesTheDefinition) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%x: tensor<1x7x4xf32>, %k: tensor<3x2x4xf32>) -> tensor<1x3x4xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[2, 1]], lhs_dilate = [1], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x7x4xf32>, tensor<3x2x4xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
})");
  ASSERT_TRUE(m);
  OpId f = m->lookupSymbol("main");
  TensorPtr x = randomTensor(m->types, m->type(FuncView{*m, f}.args()[0]), 3);
  TensorPtr k = randomTensor(m->types, m->type(FuncView{*m, f}.args()[1]), 4);
  Interpreter I(*m);
  TensorPtr r = I.callFunction(f, {x, k})[0];
  for (int p = 0; p < 3; ++p)
    for (int o = 0; o < 4; ++o) {
      int g = o / 2;
      double s = 0;
      for (int w = 0; w < 3; ++w) {
        int pos = p * 2 + w * 2 - 2;
        if (pos < 0 || pos >= 7) continue;
        for (int i = 0; i < 2; ++i) s += double(x->data<float>()[pos * 4 + g * 2 + i]) * k->data<float>()[w * 8 + i * 4 + o];
      }
      EXPECT_NEAR(r->data<float>()[p * 4 + o], s, 1e-4) << p << "," << o;
    }
}

// A reduce whose body is one add runs as a typed loop; the same body
// spelled with an extra op goes through the region. Both agree.
TEST(ExecInterpreter, FastAndRegionReductionsAgree) {
  RunResult r = run(R"(func.func @f() {
  %x = stablehlo.iota dim = 1 : tensor<3x4xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %a = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>
  %b = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>
   reducer(%p: tensor<i32>, %q: tensor<i32>) {
    %s = stablehlo.add %p, %q : tensor<i32>
    %t = stablehlo.add %s, %z : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }
  check.expect_eq %a, %b : tensor<3xi32>
  check.expect_eq_const %a, dense<6> : tensor<3xi32>
  func.return
})");
  EXPECT_EQ(r.checksPassed, 2);
  EXPECT_TRUE(r.ok());
}

TEST(ExecInterpreter, RunParallelSumsAcrossReplicas) {
  RunResult r = run(R"(module {
  func.func @ar(%x: tensor<2xi64>) -> tensor<2xi64> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi64>) -> tensor<2xi64>
    return %r : tensor<2xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %b = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
    %r:3 = "interpreter.run_parallel"(%a, %b, %a) {programs = [[@ar], [@ar], [@ar]]} : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
    check.expect_eq_const %r#2, dense<[12, 24]> : tensor<2xi64>
    func.return
  }
})");
  EXPECT_EQ(r.checksPassed, 1);
  EXPECT_TRUE(r.ok());
}

}  // namespace
}  // namespace autopart::exec
