// Shared programs for the lever tests: a two-layer MLP training step (MSE
// loss, SGD) written as JAX would lower it, and a small generated GPT step.
#pragma once

#include "gen/Models.h"
#include "tests/TestUtil.h"

namespace autopart::testing {

inline constexpr const char *kMlpStep = R"(
func.func public @main(%w1: tensor<4x16xf32> {jax.arg_info = "params['w1']"}, %w2: tensor<16x4xf32> {jax.arg_info = "params['w2']"}, %x: tensor<8x4xf32> {jax.arg_info = "batch['x']"}, %t: tensor<8x4xf32> {jax.arg_info = "batch['t']"}) -> (tensor<f32>, tensor<4x16xf32>, tensor<16x4xf32>) {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %a = stablehlo.tanh %h : tensor<8x16xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %d = stablehlo.subtract %y, %t : tensor<8x4xf32>
  %sq = stablehlo.multiply %d, %d : tensor<8x4xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %loss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
  %two = stablehlo.constant dense<2.000000e+00> : tensor<8x4xf32>
  %gy = stablehlo.multiply %two, %d : tensor<8x4xf32>
  %gw2 = stablehlo.dot_general %a, %gy, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %ga = stablehlo.dot_general %gy, %w2, contracting_dims = [1] x [1] : (tensor<8x4xf32>, tensor<16x4xf32>) -> tensor<8x16xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<8x16xf32>
  %a2 = stablehlo.multiply %a, %a : tensor<8x16xf32>
  %da = stablehlo.subtract %one, %a2 : tensor<8x16xf32>
  %gh = stablehlo.multiply %ga, %da : tensor<8x16xf32>
  %gw1 = stablehlo.dot_general %x, %gh, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %lr1 = stablehlo.constant dense<1.000000e-02> : tensor<4x16xf32>
  %s1 = stablehlo.multiply %lr1, %gw1 : tensor<4x16xf32>
  %nw1 = stablehlo.subtract %w1, %s1 : tensor<4x16xf32>
  %lr2 = stablehlo.constant dense<1.000000e-02> : tensor<16x4xf32>
  %s2 = stablehlo.multiply %lr2, %gw2 : tensor<16x4xf32>
  %nw2 = stablehlo.subtract %w2, %s2 : tensor<16x4xf32>
  return %loss, %nw1, %nw2 : tensor<f32>, tensor<4x16xf32>, tensor<16x4xf32>
}
)";

// The text of a GPT step of `layers` layers (d 64, 4 heads), bf16.
inline std::string smallGptText(int64_t layers = 3, int64_t batch = 8, int64_t seq = 64) {
  gen::GptConfig c;
  c.layers = layers;
  c.dModel = 64;
  c.heads = 4;
  c.headDim = 16;
  c.ffn = 256;
  c.seq = seq;
  c.batch = batch;
  c.vocab = 128;
  return generatedText(gen::generateGpt, c);
}

inline std::unique_ptr<Module> smallGpt(int64_t layers = 3, int64_t batch = 8, int64_t seq = 64) {
  return parse(smallGptText(layers, batch, seq), "gpt.mlir");
}

// The value a `%name = ...` defines: the result of the n-th op named `op`.
inline ValueId resultOf(const Module &m, std::string_view op, size_t n = 0) {
  std::vector<OpId> ops = opsNamed(m, op);
  return n < ops.size() ? m.result(ops[n]) : kNone;
}

}  // namespace autopart::testing
