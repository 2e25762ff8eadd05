// Writes StableHLO programs as JAX prints them (`jax.jit(f).lower(...)
// .as_text()`: one public `@main`, `jax.arg_info` / `jax.result_info` names,
// pretty-printed ops), for the benchmark generators of `autopart gen`. Every
// op checks its operand shapes and computes its result shape, so a generator
// with a wrong dimension number fails at generation, not in a later parse.
//
//   StablehloEmitter e("f32");
//   Tensor x = e.arg({8, 4}, "batch['x']");
//   Tensor w = e.arg({4, 2}, "params['w']");
//   e.result(e.dot(x, w, {}, {}, {1}, {0}), "result['y']");
//   e.module("jit_f")
//   -> module @jit_f attributes {mhlo.num_partitions = 1 : i32, ...} {
//        func.func public @main(%arg0: tensor<8x4xf32> {jax.arg_info = "batch['x']"}, ...
//          %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
//               : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
//          return %0 : tensor<8x2xf32>
#pragma once

#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/Diagnostics.h"

namespace autopart::gen {

using Shape = std::vector<int64_t>;
using Dims = std::vector<int64_t>;

struct Tensor {
  std::string name;  // SSA name with the %
  Shape shape;
  std::string dtype;  // f32, bf16, i32, i1

  int64_t rank() const { return int64_t(shape.size()); }
};

// A generator asked for an op its operands cannot have (a bug in the
// generator or a parameter combination it cannot build, e.g. heads not
// dividing d_model).
// It stays inside gen/: the public generators (gen/Models.h) turn it into an
// error in Diagnostics.
struct GenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs a generator body; a GenError becomes an error in `diags`.
template <class Fn>
auto guarded(Diagnostics &diags, Fn fn) -> std::optional<decltype(fn())> {
  try {
    return fn();
  } catch (const GenError &e) {
    diags.error(e.what());
    return std::nullopt;
  }
}

// A convolution's dimension numbers and window, as StableHLO prints them.
// Layouts name each dimension with a letter: input `b` batch / `f` feature,
// kernel `i` input / `o` output feature, digits spatial. JAX's kernel
// gradient of an NHWC / HWIO convolution, for instance, is
//   {.lhs = "f01b", .rhs = "i01o", .out = "01bf"}
//   -> dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]
struct ConvSpec {
  std::string lhs = "b01f", rhs = "01io", out = "b01f";
  Dims stride = {1, 1};
  std::vector<std::pair<int64_t, int64_t>> pad = {{0, 0}, {0, 0}};
  Dims lhsDilate = {1, 1}, rhsDilate = {1, 1};
};

class StablehloEmitter {
public:
  explicit StablehloEmitter(std::string floatType) : float_(std::move(floatType)) {}

  const std::string &floatType() const { return float_; }

  Tensor arg(Shape shape, const std::string &info, std::string dtype = "");
  void result(const Tensor &t, const std::string &info);

  // A scalar constant of `dtype` (the float type by default).
  Tensor scalar(double value, std::string dtype = "");
  // A scalar broadcast to `shape`.
  Tensor splat(double value, const Shape &shape, std::string dtype = "");

  Tensor dot(const Tensor &a, const Tensor &b, const Dims &batchA, const Dims &batchB, const Dims &contractA,
             const Dims &contractB);
  // add, subtract, multiply, divide, maximum: equal shapes and types.
  Tensor binary(const char *op, const Tensor &a, const Tensor &b);
  // exponential, log, tanh, rsqrt, sqrt, negate.
  Tensor unary(const char *op, const Tensor &a);
  Tensor broadcast(const Tensor &x, const Shape &shape, const Dims &dims);
  // Reduces `dims` away with stablehlo.add or stablehlo.maximum.
  Tensor reduce(const Tensor &x, const Dims &dims, const char *combiner = "add");
  Tensor transpose(const Tensor &x, const Dims &perm);
  Tensor reshape(const Tensor &x, const Shape &shape);
  Tensor compare(const char *direction, const Tensor &a, const Tensor &b);
  Tensor select(const Tensor &pred, const Tensor &a, const Tensor &b);
  Tensor iota(const Shape &shape, int64_t dim, std::string dtype = "i32");
  Tensor convert(const Tensor &x, const std::string &dtype);
  // Rows of `table` picked by integer `indices` (an embedding lookup, as
  // jnp.take prints): table [N, K...], indices [I..., 1] -> [I..., K...].
  Tensor gatherRows(const Tensor &table, const Tensor &indices);
  // The transpose of gatherRows: `updates` [I..., K...] added into a zero
  // table of `rows` rows at `indices` (scatter-add).
  Tensor scatterAddRows(int64_t rows, const Tensor &indices, const Tensor &updates);
  // 2-D convolution, NHWC input, HWIO kernel, SAME padding for odd kernels.
  Tensor conv2d(const Tensor &input, const Tensor &kernel, int64_t stride = 1);
  // Any convolution (no groups); the result shape follows from the window.
  Tensor convolution(const Tensor &lhs, const Tensor &rhs, const ConvSpec &spec);
  Tensor concatenate(const std::vector<Tensor> &parts, int64_t dim);
  // x[start : limit] per dimension, stride 1.
  Tensor slice(const Tensor &x, const Dims &start, const Dims &limit);
  Tensor reverse(const Tensor &x, const Dims &dims);
  // The values unchanged, as one stablehlo.optimization_barrier (jax.checkpoint
  // puts one before a recomputation so that CSE cannot fold it into the
  // original forward): %7:2 = stablehlo.optimization_barrier %3, %arg1 : ...,
  // results %7#0, %7#1 (one operand: %7).
  std::vector<Tensor> optimizationBarrier(const std::vector<Tensor> &values);
  // Random bits of `shape` and integer `dtype` from a tensor<2xui64> state,
  // algorithm DEFAULT; returns {the next state, the bits}:
  //   %7:2 = stablehlo.rng_bit_generator %arg40, algorithm =  DEFAULT
  //          : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x16xui32>)
  std::pair<Tensor, Tensor> rngBitGenerator(const Tensor &state, const Shape &shape, const std::string &dtype);
  // The same bits read as another element type of the same width (ui32 <-> f32).
  Tensor bitcastConvert(const Tensor &x, const std::string &dtype);

  // Broadcasts `x` (of a shape made of some of `like`'s dimensions, in
  // order) to `like`'s shape; `dims` are the dimensions of `like` it fills.
  Tensor expand(const Tensor &x, const Tensor &like, const Dims &dims) { return broadcast(x, like.shape, dims); }

  size_t numOps() const { return numOps_; }
  std::string module(const std::string &name) const;

  static std::string typeStr(const Shape &shape, const std::string &dtype);

private:
  Tensor fresh(Shape shape, std::string dtype);
  std::string type(const Tensor &t) const { return typeStr(t.shape, t.dtype); }
  std::ostringstream &line();

  std::string float_;
  std::vector<std::string> args_;
  std::vector<std::pair<std::string, std::string>> results_;  // value, "type {jax.result_info}"
  std::ostringstream body_;
  size_t next_ = 0;
  size_t numOps_ = 0;
};

}  // namespace autopart::gen
