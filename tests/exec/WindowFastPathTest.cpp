// The typed fast paths of reduce_window and select_and_scatter (ReduceOps.cpp)
// against the region-calling paths on the same data, and the convolution's
// GEMM over several images against the definition.
#include <gtest/gtest.h>

#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

// @main's results on random arguments.
std::vector<TensorPtr> runRandom(const std::string &text) {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return {};
  OpId f = m->lookupSymbol("main");
  std::vector<TensorPtr> args;
  uint64_t seed = 11;
  for (ValueId a : FuncView{*m, f}.args()) args.push_back(randomTensor(m->types, m->type(a), seed++));
  Interpreter I(*m);
  return I.callFunction(f, args);
}

void expectSame(const Tensor &a, const Tensor &b) {
  ASSERT_EQ(a.shape, b.shape);
  for (int64_t i = 0; i < a.numElements(); ++i) ASSERT_EQ(a.data<float>()[i], b.data<float>()[i]) << "element " << i;
}

// A max-pool with padding and strides: `maximum(arg0, arg1)` is the typed
// path, `maximum(arg1, arg0)` goes through the region.
TEST(ExecWindowFastPath, ReduceWindowAgreesWithTheRegion) {
  std::vector<TensorPtr> r = runRandom(R"(func.func @main(%x: tensor<2x7x5x3xf32>) -> (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %a = "stablehlo.reduce_window"(%x, %ninf) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %m = stablehlo.maximum %p, %q : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x7x5x3xf32>, tensor<f32>) -> tensor<2x4x3x3xf32>
  %b = "stablehlo.reduce_window"(%x, %ninf) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %m = stablehlo.maximum %q, %p : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x7x5x3xf32>, tensor<f32>) -> tensor<2x4x3x3xf32>
  return %a, %b : tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>
})");
  ASSERT_EQ(r.size(), 2u);
  expectSame(*r[0], *r[1]);
}

// The max-pool gradient: `compare GE, arg0, arg1` is the typed path,
// `compare LE, arg1, arg0` (the same test) goes through the regions.
TEST(ExecWindowFastPath, SelectAndScatterAgreesWithTheRegions) {
  std::vector<TensorPtr> r = runRandom(R"(func.func @main(%x: tensor<2x7x6x3xf32>, %g: tensor<2x4x3x3xf32>) -> (tensor<2x7x6x3xf32>, tensor<2x7x6x3xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %a = "stablehlo.select_and_scatter"(%x, %g, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare GE, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x7x6x3xf32>, tensor<2x4x3x3xf32>, tensor<f32>) -> tensor<2x7x6x3xf32>
  %b = "stablehlo.select_and_scatter"(%x, %g, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare LE, %q, %p, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %q, %p : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x7x6x3xf32>, tensor<2x4x3x3xf32>, tensor<f32>) -> tensor<2x7x6x3xf32>
  return %a, %b : tensor<2x7x6x3xf32>, tensor<2x7x6x3xf32>
})");
  ASSERT_EQ(r.size(), 2u);
  expectSame(*r[0], *r[1]);
}

// 3 images of 32x32x160 * 3x3x160x2: about 1.5M im2col elements per image,
// so the GEMMs take images {0, 1} and {2}.
TEST(ExecWindowFastPath, ConvolutionOverImageChunksMatchesTheDefinition) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%x: tensor<3x32x32x160xf32>, %k: tensor<3x3x160x2xf32>) -> tensor<3x32x32x2xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x32x32x160xf32>, tensor<3x3x160x2xf32>) -> tensor<3x32x32x2xf32>
  return %0 : tensor<3x32x32x2xf32>
})");
  ASSERT_TRUE(m);
  OpId f = m->lookupSymbol("main");
  TensorPtr x = randomTensor(m->types, m->type(FuncView{*m, f}.args()[0]), 5);
  TensorPtr k = randomTensor(m->types, m->type(FuncView{*m, f}.args()[1]), 6);
  Interpreter I(*m);
  TensorPtr r = I.callFunction(f, {x, k})[0];
  const float *xd = x->data<float>(), *kd = k->data<float>(), *rd = r->data<float>();
  for (int n = 0; n < 3; ++n)
    for (int i = 0; i < 32; i += 7)
      for (int j = 0; j < 32; j += 5)
        for (int o = 0; o < 2; ++o) {
          double s = 0;
          for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) {
              int y = i + a - 1, z = j + b - 1;
              if (y < 0 || y >= 32 || z < 0 || z >= 32) continue;
              for (int c = 0; c < 160; ++c)
                s += double(xd[((n * 32 + y) * 32 + z) * 160 + c]) * kd[((a * 3 + b) * 160 + c) * 2 + o];
            }
          EXPECT_NEAR(rd[((n * 32 + i) * 32 + j) * 2 + o], s, 1e-3) << n << " " << i << " " << j << " " << o;
        }
}

}  // namespace
}  // namespace autopart::exec
