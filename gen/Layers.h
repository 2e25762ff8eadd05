// The layers the benchmark generators build programs from, each a forward
// function that returns what its backward needs and a backward function
// computing input and parameter gradients by hand (as jax.grad would emit
// them: dot_generals with swapped contracting dimensions, reductions for
// broadcasts). Shapes follow JAX's transformer layout: activations
// [batch, seq, d_model], attention weights [d_model, heads, head_dim].
//
//   LayerNorm over the last dimension, d = 4:   y = (x - mean) * rstd * g + b
//   backward: dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)),
//             dxhat = dy * g, dg = sum(dy * xhat), db = sum(dy)
#pragma once

#include <string>
#include <vector>

#include "gen/StablehloEmitter.h"

namespace autopart::gen {

// Elementwise helpers over the emitter.
struct Ops {
  StablehloEmitter &e;

  Tensor add(const Tensor &a, const Tensor &b) { return e.binary("add", a, b); }
  Tensor sub(const Tensor &a, const Tensor &b) { return e.binary("subtract", a, b); }
  Tensor mul(const Tensor &a, const Tensor &b) { return e.binary("multiply", a, b); }
  Tensor div(const Tensor &a, const Tensor &b) { return e.binary("divide", a, b); }
  Tensor scale(const Tensor &x, double c) { return mul(x, e.splat(c, x.shape, x.dtype)); }
  Tensor shift(const Tensor &x, double c) { return add(x, e.splat(c, x.shape, x.dtype)); }
  // v has x's shape without its last dimension.
  Tensor overLast(const Tensor &v, const Tensor &like);
  // v is a vector of x's last dimension.
  Tensor alongLast(const Tensor &v, const Tensor &like);
  // Sum over every dimension but the last.
  Tensor sumLeading(const Tensor &x);
  Tensor sumLast(const Tensor &x) { return e.reduce(x, {x.rank() - 1}); }
};

// Parameters and their Adam state, declared before the program body so the
// arguments come out in JAX's pytree order: params, opt_state mu, opt_state
// nu, then the batch.
//
// With a master type wider than the emitter's float type (mixed precision,
// e.g. f32 masters for a bf16 step) the arguments, Adam and the results are
// in the master type and the program computes on a cast copy: `cast` emits
// one stablehlo.convert per parameter where the forward first uses it, and
// the Adam update converts each gradient back first.
//
//   params.materialize(e, "f32");          // e computes in bf16
//   params.cast(e, {wq, wk});              // %5 = stablehlo.convert %arg2 ...
//   e.dot(h, params[wq], ...);             // the bf16 copy
//
// `rebind` points a parameter at another tensor of the master type (its
// value after an optimization_barrier, when a layer is recomputed); it needs
// a new `cast` before its next use.
class ParamSet {
public:
  size_t declare(const std::string &path, Shape shape);
  // `masterType` empty: the emitter's float type, no casts.
  void materialize(StablehloEmitter &e, const std::string &masterType = "");
  // The compute-type value of parameter i; a GenError if a mixed-precision
  // parameter is used before it is cast.
  const Tensor &operator[](size_t i) const;
  // The master-type tensor the compute value derives from (the argument, or
  // what `rebind` set).
  const Tensor &master(size_t i) const { return params_[i].source; }
  void cast(StablehloEmitter &e, const std::vector<size_t> &ids);
  void rebind(size_t i, Tensor source);
  void setGrad(size_t i, Tensor g) { params_[i].grad = std::move(g); }
  void addGrad(Ops &ops, size_t i, const Tensor &g);
  // Adam (bias correction folded into the learning rate): returns the new
  // params, mu and nu as results.
  void emitAdamUpdate(Ops &ops, double lr = 1e-4, double b1 = 0.9, double b2 = 0.95, double eps = 1e-8);
  int64_t numElements() const;
  size_t size() const { return params_.size(); }

private:
  struct Param {
    std::string path;
    Shape shape;
    Tensor value, mu, nu, grad;
    Tensor source;   // master type: value, or its barriered copy
    Tensor compute;  // compute type: source itself, or its convert; empty until cast
  };
  std::vector<Param> params_;
  std::string computeType_;
};

struct LayerNormCache {
  Tensor xhat, rstd;
};
Tensor layerNorm(Ops &ops, const Tensor &x, const Tensor &g, const Tensor &b, LayerNormCache &cache);
Tensor layerNormGrad(Ops &ops, const Tensor &dy, const Tensor &g, const LayerNormCache &cache, Tensor &dg, Tensor &db);

// RMSNorm (T5's LayerNorm: no mean subtraction, no bias), reusing
// LayerNormCache: y = x * rstd * g, rstd = rsqrt(mean(x^2) + eps).
// backward: dx = rstd * (dxhat - xhat * mean(dxhat * xhat)), dg = sum(dy * xhat)
Tensor rmsNorm(Ops &ops, const Tensor &x, const Tensor &g, LayerNormCache &cache);
Tensor rmsNormGrad(Ops &ops, const Tensor &dy, const Tensor &g, const LayerNormCache &cache, Tensor &dg);

// GELU, tanh approximation (as jax.nn.gelu).
Tensor gelu(Ops &ops, const Tensor &h);
Tensor geluGrad(Ops &ops, const Tensor &h, const Tensor &dy);

Tensor relu(Ops &ops, const Tensor &h);
Tensor reluGrad(Ops &ops, const Tensor &h, const Tensor &dy);

// Dropout as Flax's nn.Dropout lowers it with JAX's "rbg" PRNG (random
// bits from stablehlo.rng_bit_generator, as large-model trainers configure
// jax.random). Each mask is one generator call on `state`, which it
// advances (the sites of a step thread one state through, in order); the
// ui32 bits become a uniform f32 in [0, 1) as jax.random.uniform makes them
// (the top 23 bits under the exponent of 1.0, bitcast, minus 1.0), and
// bernoulli keeps where it is below 1 - rate:
//
//   Dropout d{0.1, rngArg};
//   Tensor keep = dropoutMask(ops, d, x.shape);   // i1, d.state advanced
//   Tensor y = dropoutApply(ops, d, keep, x);     // select(keep, x / 0.9, 0)
//   Tensor dx = dropoutApply(ops, d, keep, dy);   // its gradient: the same
struct Dropout {
  double rate = 0;  // 0: no dropout (nothing emitted)
  Tensor state;     // tensor<2xui64>

  bool on() const { return rate > 0; }
};
Tensor dropoutMask(Ops &ops, Dropout &d, const Shape &shape);
Tensor dropoutApply(Ops &ops, const Dropout &d, const Tensor &keep, const Tensor &x);

// Mean softmax cross-entropy of logits [N..., V] against integer targets
// [N...]; returns the scalar loss and sets dlogits.
Tensor softmaxCrossEntropy(Ops &ops, const Tensor &logits, const Tensor &targets, Tensor &dlogits);

// x [..., in] . w [in, out] + b: the last dimension of x contracted.
Tensor linear(Ops &ops, const Tensor &x, const Tensor &w, const Tensor *b);
// Gradients of linear: dx, dw (= x^T dy over every leading dimension), db.
// needDx false: the input is data, its gradient is not computed.
Tensor linearGrad(Ops &ops, const Tensor &x, const Tensor &w, const Tensor &dy, Tensor &dw, Tensor *db,
                  bool needDx = true);

// x [N, H, W, Ci] convolved with w [kh, kw, Ci, Co] (StablehloEmitter::conv2d:
// SAME padding of k/2 each side) plus b [Co] along channels.
Tensor conv(Ops &ops, const Tensor &x, const Tensor &w, const Tensor *b, int64_t stride = 1);
// Gradients of conv as jax.grad emits them: dw is x convolved with dy,
// batch and feature dimensions swapped (`[f, 0, 1, b]x[i, 0, 1, o]->[0, 1,
// b, f]`, dy dilated by the stride); dx is dy (dilated by the stride)
// convolved with the spatially reversed kernel, input and output features
// swapped (`[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]`); db sums dy. For
// stride 1 and k = 3 both paddings are [1, 1]; for stride 2 and even H they
// are [1, 0] (dw) and [1, 2] (dx).
Tensor convGrad(Ops &ops, const Tensor &x, const Tensor &w, const Tensor &dy, int64_t stride, Tensor &dw, Tensor *db,
                bool needDx = true);

}  // namespace autopart::gen
