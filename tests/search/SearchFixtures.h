// Small programs the search tests share: an MLP step with an optimizer-state
// argument and a transformer block (attention + MLP), both forward only but
// with named parameters, so every expert tactic has something to shard.
#pragma once

#include <gtest/gtest.h>

#include "asm/Parser.h"
#include "tactics/ApplySchedule.h"

namespace autopart::testing {

// y = (logistic(x·w1 + b1))·w2 + x, and w1' = w1 - mu (an update that ties
// the optimizer state to its parameter). $N batch, $M model width, $F hidden
// width, $T element type.
inline constexpr const char *kMlpStepTemplate = R"(
func.func public @main(%arg0: tensor<$Mx$Fx$T> {jax.arg_info = "params['w1']"}, %arg1: tensor<$Fx$T> {jax.arg_info = "params['b1']"}, %arg2: tensor<$Fx$Mx$T> {jax.arg_info = "params['w2']"}, %arg3: tensor<$Nx$Mx$T> {jax.arg_info = "batch['x']"}, %arg4: tensor<$Mx$Fx$T> {jax.arg_info = "opt_state['mu']['w1']"}) -> (tensor<$Nx$Mx$T>, tensor<$Mx$Fx$T>) {
  %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<$Nx$Mx$T>, tensor<$Mx$Fx$T>) -> tensor<$Nx$Fx$T>
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<$Fx$T>) -> tensor<$Nx$Fx$T>
  %2 = stablehlo.add %0, %1 : tensor<$Nx$Fx$T>
  %3 = stablehlo.logistic %2 : tensor<$Nx$Fx$T>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0] : (tensor<$Nx$Fx$T>, tensor<$Fx$Mx$T>) -> tensor<$Nx$Mx$T>
  %5 = stablehlo.add %4, %arg3 : tensor<$Nx$Mx$T>
  %6 = stablehlo.subtract %arg0, %arg4 : tensor<$Mx$Fx$T>
  return %5, %6 : tensor<$Nx$Mx$T>, tensor<$Mx$Fx$T>
}
)";

// Attention and MLP: $B batch, $S sequence, $M d_model, $H heads of $D, $F
// MLP width. The sequence name lands on both dimensions of the attention
// scores (a conflict).
inline constexpr const char *kTransformerBlockTemplate = R"(
func.func public @main(%x: tensor<$Bx$Sx$Mx$T> {jax.arg_info = "batch['x']"}, %wq: tensor<$Mx$Hx$Dx$T> {jax.arg_info = "params['wq']"}, %wk: tensor<$Mx$Hx$Dx$T> {jax.arg_info = "params['wk']"}, %wv: tensor<$Mx$Hx$Dx$T> {jax.arg_info = "params['wv']"}, %wo: tensor<$Hx$Dx$Mx$T> {jax.arg_info = "params['wo']"}, %w1: tensor<$Mx$Fx$T> {jax.arg_info = "params['w1']"}, %w2: tensor<$Fx$Mx$T> {jax.arg_info = "params['w2']"}) -> tensor<$Bx$Sx$Mx$T> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<$T>
  %q = stablehlo.dot_general %x, %wq, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Hx$Dx$T>) -> tensor<$Bx$Sx$Hx$Dx$T>
  %k = stablehlo.dot_general %x, %wk, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Hx$Dx$T>) -> tensor<$Bx$Sx$Hx$Dx$T>
  %v = stablehlo.dot_general %x, %wv, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Hx$Dx$T>) -> tensor<$Bx$Sx$Hx$Dx$T>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<$Bx$Sx$Hx$Dx$T>, tensor<$Bx$Sx$Hx$Dx$T>) -> tensor<$Bx$Hx$Sx$Sx$T>
  %e = stablehlo.exponential %s : tensor<$Bx$Hx$Sx$Sx$T>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<$Bx$Hx$Sx$Sx$T>, tensor<$T>) -> tensor<$Bx$Hx$Sx$T>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<$Bx$Hx$Sx$T>) -> tensor<$Bx$Hx$Sx$Sx$T>
  %p = stablehlo.divide %e, %sb : tensor<$Bx$Hx$Sx$Sx$T>
  %a = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<$Bx$Hx$Sx$Sx$T>, tensor<$Bx$Sx$Hx$Dx$T>) -> tensor<$Bx$Hx$Sx$Dx$T>
  %o = stablehlo.dot_general %a, %wo, contracting_dims = [1, 3] x [0, 1] : (tensor<$Bx$Hx$Sx$Dx$T>, tensor<$Hx$Dx$Mx$T>) -> tensor<$Bx$Sx$Mx$T>
  %h = stablehlo.add %x, %o : tensor<$Bx$Sx$Mx$T>
  %m1 = stablehlo.dot_general %h, %w1, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Fx$T>) -> tensor<$Bx$Sx$Fx$T>
  %g = stablehlo.logistic %m1 : tensor<$Bx$Sx$Fx$T>
  %m2 = stablehlo.dot_general %g, %w2, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Fx$T>, tensor<$Fx$Mx$T>) -> tensor<$Bx$Sx$Mx$T>
  %y = stablehlo.add %h, %m2 : tensor<$Bx$Sx$Mx$T>
  return %y : tensor<$Bx$Sx$Mx$T>
}
)";

// Replaces every `$X` by its value.
inline std::string instantiate(std::string text, const std::vector<std::pair<char, std::string>> &values) {
  for (const auto &[key, value] : values) {
    std::string token = std::string("$") + key;
    for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  }
  return text;
}

inline std::string mlpStep(int64_t n = 64, int64_t m = 512, int64_t f = 2048, const char *type = "f32") {
  return instantiate(kMlpStepTemplate, {{'N', std::to_string(n)}, {'M', std::to_string(m)},
                                        {'F', std::to_string(f)}, {'T', type}});
}

inline std::string transformerBlock(int64_t b = 8, int64_t s = 16, int64_t m = 64, int64_t h = 4, int64_t d = 16,
                                    int64_t f = 256, const char *type = "f32") {
  return instantiate(kTransformerBlockTemplate,
                     {{'B', std::to_string(b)}, {'S', std::to_string(s)}, {'M', std::to_string(m)},
                      {'H', std::to_string(h)}, {'D', std::to_string(d)}, {'F', std::to_string(f)}, {'T', type}});
}

inline std::unique_ptr<Module> parseProgram(const std::string &text) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

// An expert tactic schedule's plan, as the plan command computes it.
inline ShardingVector expertPlan(const Module &m, const NamedDimensions &names, const Mesh &mesh,
                                 const std::string &tactics) {
  Diagnostics diags;
  std::optional<TacticSchedule> schedule = parseTacticSchedule(tactics, mesh, diags);
  EXPECT_TRUE(schedule) << diags.errorText();
  ShardingVector state(m.values.size());
  OpId func = m.findEntryFunction();
  ScheduleContext ctx{m, func, mesh, "mesh", names};
  EXPECT_TRUE(applySchedule(ctx, *schedule, state, AutoTacticFn{}, diags)) << diags.errorText();
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

// Two plans give every value the same sharding (up to sameSharding).
inline void expectSamePlan(const ShardingVector &a, const ShardingVector &b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t v = 0; v < a.size(); ++v) EXPECT_TRUE(sameSharding(a[v], b[v])) << "value " << v;
}

}  // namespace autopart::testing

namespace autopart::testing {

// `layers` MLP blocks (x·w1 -> logistic -> ·w2 + x) with one optimizer-state
// argument per weight and the update w' = w - mu returned for each.
inline std::string mlpStack(int layers, int64_t n = 64, int64_t m = 512, int64_t f = 2048) {
  auto t = [](int64_t a, int64_t b) { return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>"; };
  std::string args = "%x: " + t(n, m) + " {jax.arg_info = \"batch['x']\"}", body, rets = "%h0", rtypes = t(n, m);
  std::string mus;
  for (int l = 0; l < layers; ++l) {
    std::string L = std::to_string(l), N = std::to_string(l + 1);
    args += ", %w1_" + L + ": " + t(m, f) + " {jax.arg_info = \"params['w1_" + L + "']\"}";
    args += ", %w2_" + L + ": " + t(f, m) + " {jax.arg_info = \"params['w2_" + L + "']\"}";
    mus += ", %mu1_" + L + ": " + t(m, f) + " {jax.arg_info = \"opt_state['mu']['w1_" + L + "']\"}";
    mus += ", %mu2_" + L + ": " + t(f, m) + " {jax.arg_info = \"opt_state['mu']['w2_" + L + "']\"}";
    std::string in = l == 0 ? "%x" : "%h" + L;
    body += "  %a" + L + " = stablehlo.dot_general " + in + ", %w1_" + L + ", contracting_dims = [1] x [0] : (" +
            t(n, m) + ", " + t(m, f) + ") -> " + t(n, f) + "\n";
    body += "  %g" + L + " = stablehlo.logistic %a" + L + " : " + t(n, f) + "\n";
    body += "  %b" + L + " = stablehlo.dot_general %g" + L + ", %w2_" + L + ", contracting_dims = [1] x [0] : (" +
            t(n, f) + ", " + t(f, m) + ") -> " + t(n, m) + "\n";
    body += "  %h" + N + " = stablehlo.add " + in + ", %b" + L + " : " + t(n, m) + "\n";
    body += "  %n1_" + L + " = stablehlo.subtract %w1_" + L + ", %mu1_" + L + " : " + t(m, f) + "\n";
    body += "  %n2_" + L + " = stablehlo.subtract %w2_" + L + ", %mu2_" + L + " : " + t(f, m) + "\n";
    rets += ", %n1_" + L + ", %n2_" + L;
    rtypes += ", " + t(m, f) + ", " + t(f, m);
  }
  rets.replace(0, 3, "%h" + std::to_string(layers));
  return "func.func public @main(" + args + mus + ") -> (" + rtypes + ") {\n" + body + "  return " + rets + " : " +
         rtypes + "\n}\n";
}

// One layer of `transformerStack`: $L the layer, $X its input.
inline constexpr const char *kStackLayerTemplate = R"(  %q_$L = stablehlo.dot_general $X, %wq_$L, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Hx$Dx$T>) -> tensor<$Bx$Sx$Hx$Dx$T>
  %k_$L = stablehlo.dot_general $X, %wk_$L, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Hx$Dx$T>) -> tensor<$Bx$Sx$Hx$Dx$T>
  %v_$L = stablehlo.dot_general $X, %wv_$L, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Hx$Dx$T>) -> tensor<$Bx$Sx$Hx$Dx$T>
  %s_$L = stablehlo.dot_general %q_$L, %k_$L, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<$Bx$Sx$Hx$Dx$T>, tensor<$Bx$Sx$Hx$Dx$T>) -> tensor<$Bx$Hx$Sx$Sx$T>
  %e_$L = stablehlo.exponential %s_$L : tensor<$Bx$Hx$Sx$Sx$T>
  %sum_$L = stablehlo.reduce(%e_$L init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<$Bx$Hx$Sx$Sx$T>, tensor<$T>) -> tensor<$Bx$Hx$Sx$T>
  %sb_$L = stablehlo.broadcast_in_dim %sum_$L, dims = [0, 1, 2] : (tensor<$Bx$Hx$Sx$T>) -> tensor<$Bx$Hx$Sx$Sx$T>
  %p_$L = stablehlo.divide %e_$L, %sb_$L : tensor<$Bx$Hx$Sx$Sx$T>
  %a_$L = stablehlo.dot_general %p_$L, %v_$L, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<$Bx$Hx$Sx$Sx$T>, tensor<$Bx$Sx$Hx$Dx$T>) -> tensor<$Bx$Hx$Sx$Dx$T>
  %o_$L = stablehlo.dot_general %a_$L, %wo_$L, contracting_dims = [1, 3] x [0, 1] : (tensor<$Bx$Hx$Sx$Dx$T>, tensor<$Hx$Dx$Mx$T>) -> tensor<$Bx$Sx$Mx$T>
  %h_$L = stablehlo.add $X, %o_$L : tensor<$Bx$Sx$Mx$T>
  %m1_$L = stablehlo.dot_general %h_$L, %w1_$L, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Mx$T>, tensor<$Mx$Fx$T>) -> tensor<$Bx$Sx$Fx$T>
  %g_$L = stablehlo.logistic %m1_$L : tensor<$Bx$Sx$Fx$T>
  %m2_$L = stablehlo.dot_general %g_$L, %w2_$L, contracting_dims = [2] x [0] : (tensor<$Bx$Sx$Fx$T>, tensor<$Fx$Mx$T>) -> tensor<$Bx$Sx$Mx$T>
  %y_$L = stablehlo.add %h_$L, %m2_$L : tensor<$Bx$Sx$Mx$T>
)";

// `layers` attention + MLP blocks (bench/search_programs.py's `stack`, the
// search benchmark's transformer stand-in): x -> q, k, v -> softmax(q·k)·v ->
// ·wo + x -> logistic(·w1)·w2 + h, one optimizer-state argument per weight
// and the update w' = w - mu returned for each.
inline std::string transformerStack(int layers, int64_t b, int64_t s, int64_t m, int64_t h, int64_t d, int64_t f,
                                    const char *type = "bf16") {
  std::vector<std::pair<char, std::string>> dims = {
      {'B', std::to_string(b)}, {'S', std::to_string(s)}, {'M', std::to_string(m)}, {'H', std::to_string(h)},
      {'D', std::to_string(d)}, {'F', std::to_string(f)}, {'T', type}};
  const std::vector<std::pair<std::string, std::string>> weights = {
      {"wq", "$Mx$Hx$D"}, {"wk", "$Mx$Hx$D"}, {"wv", "$Mx$Hx$D"}, {"wo", "$Hx$Dx$M"}, {"w1", "$Mx$F"}, {"w2", "$Fx$M"}};
  std::string args = "%x: tensor<$Bx$Sx$Mx$T> {jax.arg_info = \"batch['x']\"}", mus, updates;
  std::string rets = "%y_" + std::to_string(layers - 1), rtypes = "tensor<$Bx$Sx$Mx$T>";
  std::string body = "  %zero = stablehlo.constant dense<0.000000e+00> : tensor<$T>\n";
  for (int l = 0; l < layers; ++l) {
    std::string L = std::to_string(l);
    body += instantiate(kStackLayerTemplate, {{'L', L}, {'X', l == 0 ? "%x" : "%y_" + std::to_string(l - 1)}});
    for (const auto &[w, shape] : weights) {
      std::string p = w + "_" + L, ty = "tensor<" + shape + "x$T>";
      args += ", %" + p + ": " + ty + " {jax.arg_info = \"params['" + p + "']\"}";
      mus += ", %mu_" + p + ": " + ty + " {jax.arg_info = \"opt_state['mu']['" + p + "']\"}";
      updates += "  %new_" + p + " = stablehlo.subtract %" + p + ", %mu_" + p + " : " + ty + "\n";
      rets += ", %new_" + p;
      rtypes += ", " + ty;
    }
  }
  return instantiate("func.func public @main(" + args + mus + ") -> (" + rtypes + ") {\n" + body + updates +
                         "  return " + rets + " : " + rtypes + "\n}\n",
                     dims);
}

}  // namespace autopart::testing
