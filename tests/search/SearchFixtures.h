// Small programs the search tests share: an MLP step with an optimizer-state
// argument and a transformer block (attention + MLP), both forward only but
// with named parameters, so every expert tactic has something to shard.
#pragma once

#include <gtest/gtest.h>

#include "ir/Parser.h"
#include "tactics/ApplySchedule.h"

namespace autopart::testing {

// y = (logistic(x·w1 + b1))·w2 + x, and w1' = w1 - mu (an update that ties
// the optimizer state to its parameter).
inline constexpr const char *kMlpStep = R"(
func.func public @main(%arg0: tensor<512x2048xf32> {jax.arg_info = "params['w1']"}, %arg1: tensor<2048xf32> {jax.arg_info = "params['b1']"}, %arg2: tensor<2048x512xf32> {jax.arg_info = "params['w2']"}, %arg3: tensor<64x512xf32> {jax.arg_info = "batch['x']"}, %arg4: tensor<512x2048xf32> {jax.arg_info = "opt_state['mu']['w1']"}) -> (tensor<64x512xf32>, tensor<512x2048xf32>) {
  %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x2048xf32>) -> tensor<64x2048xf32>
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2048xf32>) -> tensor<64x2048xf32>
  %2 = stablehlo.add %0, %1 : tensor<64x2048xf32>
  %3 = stablehlo.logistic %2 : tensor<64x2048xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0] : (tensor<64x2048xf32>, tensor<2048x512xf32>) -> tensor<64x512xf32>
  %5 = stablehlo.add %4, %arg3 : tensor<64x512xf32>
  %6 = stablehlo.subtract %arg0, %arg4 : tensor<512x2048xf32>
  return %5, %6 : tensor<64x512xf32>, tensor<512x2048xf32>
}
)";

// Batch 8, sequence 16, d_model 64, 4 heads of 16, MLP 256. The sequence
// name lands on both dimensions of the attention scores (a conflict).
inline constexpr const char *kTransformerBlock = R"(
func.func public @main(%x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']"}, %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']"}, %wk: tensor<64x4x16xf32> {jax.arg_info = "params['wk']"}, %wv: tensor<64x4x16xf32> {jax.arg_info = "params['wv']"}, %wo: tensor<4x16x64xf32> {jax.arg_info = "params['wo']"}, %w1: tensor<64x256xf32> {jax.arg_info = "params['w1']"}, %w2: tensor<256x64xf32> {jax.arg_info = "params['w2']"}) -> tensor<8x16x64xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %q = stablehlo.dot_general %x, %wq, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x4x16xf32>) -> tensor<8x16x4x16xf32>
  %k = stablehlo.dot_general %x, %wk, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x4x16xf32>) -> tensor<8x16x4x16xf32>
  %v = stablehlo.dot_general %x, %wv, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x4x16xf32>) -> tensor<8x16x4x16xf32>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<8x16x4x16xf32>, tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
  %e = stablehlo.exponential %s : tensor<8x4x16x16xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<8x4x16x16xf32>, tensor<f32>) -> tensor<8x4x16xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<8x4x16xf32>) -> tensor<8x4x16x16xf32>
  %p = stablehlo.divide %e, %sb : tensor<8x4x16x16xf32>
  %a = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<8x4x16x16xf32>, tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
  %o = stablehlo.dot_general %a, %wo, contracting_dims = [1, 3] x [0, 1] : (tensor<8x4x16x16xf32>, tensor<4x16x64xf32>) -> tensor<8x16x64xf32>
  %h = stablehlo.add %x, %o : tensor<8x16x64xf32>
  %m1 = stablehlo.dot_general %h, %w1, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x256xf32>) -> tensor<8x16x256xf32>
  %g = stablehlo.logistic %m1 : tensor<8x16x256xf32>
  %m2 = stablehlo.dot_general %g, %w2, contracting_dims = [2] x [0] : (tensor<8x16x256xf32>, tensor<256x64xf32>) -> tensor<8x16x64xf32>
  %y = stablehlo.add %h, %m2 : tensor<8x16x64xf32>
  return %y : tensor<8x16x64xf32>
}
)";

inline std::unique_ptr<Module> parseProgram(const char *text) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

// An expert tactic schedule's plan, as the plan command computes it.
inline ShardingVector expertPlan(const Module &m, const NamedDimensions &names, const Mesh &mesh,
                                 const std::string &tactics) {
  std::string err;
  std::optional<TacticSchedule> schedule = parseTacticSchedule(tactics, mesh, &err);
  EXPECT_TRUE(schedule) << err;
  ShardingVector state(m.values.size());
  OpId func = findEntryFunction(m);
  ScheduleContext ctx{m, func, mesh, "mesh", names};
  EXPECT_TRUE(applySchedule(ctx, *schedule, state, AutoTacticFn{}, &err)) << err;
  return state;
}

// Shardings equal up to "no sharding" == "every dimension empty".
inline bool sameSharding(const std::optional<TensorSharding> &a, const std::optional<TensorSharding> &b) {
  auto empty = [](const std::optional<TensorSharding> &s) {
    if (!s) return true;
    for (const DimSharding &d : s->dims)
      if (!d.axes.empty()) return false;
    return true;
  };
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (a->dims.size() != b->dims.size()) return false;
  for (size_t d = 0; d < a->dims.size(); ++d)
    if (a->dims[d].axes != b->dims[d].axes) return false;
  return true;
}

}  // namespace autopart::testing
