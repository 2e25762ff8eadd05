#include "gen/Layers.h"

#include <cmath>

namespace autopart::gen {

namespace {

Dims iotaDims(int64_t n) {
  Dims d;
  for (int64_t i = 0; i < n; ++i) d.push_back(i);
  return d;
}

}  // namespace

Tensor Ops::overLast(const Tensor &v, const Tensor &like) { return e.broadcast(v, like.shape, iotaDims(like.rank() - 1)); }

Tensor Ops::alongLast(const Tensor &v, const Tensor &like) { return e.broadcast(v, like.shape, {like.rank() - 1}); }

Tensor Ops::sumLeading(const Tensor &x) { return e.reduce(x, iotaDims(x.rank() - 1)); }

size_t ParamSet::declare(const std::string &path, Shape shape) {
  params_.push_back(Param{path, std::move(shape), {}, {}, {}, {}, {}, {}});
  return params_.size() - 1;
}

void ParamSet::materialize(StablehloEmitter &e, const std::string &masterType) {
  computeType_ = e.floatType();
  const std::string &type = masterType.empty() ? computeType_ : masterType;
  for (Param &p : params_) p.value = e.arg(p.shape, "params" + p.path, type);
  for (Param &p : params_) p.mu = e.arg(p.shape, "opt_state['mu']" + p.path, type);
  for (Param &p : params_) p.nu = e.arg(p.shape, "opt_state['nu']" + p.path, type);
  for (size_t i = 0; i < params_.size(); ++i) rebind(i, params_[i].value);
}

const Tensor &ParamSet::operator[](size_t i) const {
  const Param &p = params_[i];
  if (p.compute.name.empty()) throw GenError("parameter " + p.path + " used before its cast to " + computeType_);
  return p.compute;
}

void ParamSet::cast(StablehloEmitter &e, const std::vector<size_t> &ids) {
  for (size_t i : ids) {
    Param &p = params_[i];
    if (p.compute.name.empty()) p.compute = e.convert(p.source, computeType_);
  }
}

void ParamSet::rebind(size_t i, Tensor source) {
  Param &p = params_[i];
  // Without mixed precision the source is already the compute value: no
  // cast, no convert, the program is the one JAX prints for a single type.
  p.compute = source.dtype == computeType_ ? source : Tensor{};
  p.source = std::move(source);
}

void ParamSet::addGrad(Ops &ops, size_t i, const Tensor &g) {
  Param &p = params_[i];
  p.grad = p.grad.name.empty() ? g : ops.add(p.grad, g);
}

void ParamSet::emitAdamUpdate(Ops &ops, double lr, double b1, double b2, double eps) {
  std::vector<Tensor> next, mu, nu;
  for (Param &p : params_) {
    if (p.grad.name.empty()) throw GenError("parameter " + p.path + " has no gradient");
    // The transpose of the forward's cast: the gradient back in the master
    // type, so Adam's moments and update stay in it (as mixed-precision
    // training keeps them).
    Tensor g = p.grad.dtype == p.value.dtype ? p.grad : ops.e.convert(p.grad, p.value.dtype);
    // One op per statement where a call would emit two (the order of a
    // call's arguments is unspecified; the program must not depend on the
    // compiler). The order is the one these programs always had.
    Tensor gScaled = ops.scale(g, 1 - b1);
    Tensor muScaled = ops.scale(p.mu, b1);
    Tensor m = ops.add(muScaled, gScaled);
    Tensor g2Scaled = ops.scale(ops.mul(g, g), 1 - b2);
    Tensor nuScaled = ops.scale(p.nu, b2);
    Tensor v = ops.add(nuScaled, g2Scaled);
    Tensor denom = ops.shift(ops.e.unary("sqrt", v), eps);
    next.push_back(ops.sub(p.value, ops.scale(ops.div(m, denom), lr)));
    mu.push_back(m);
    nu.push_back(v);
  }
  for (size_t i = 0; i < params_.size(); ++i) ops.e.result(next[i], "['params']" + params_[i].path);
  for (size_t i = 0; i < params_.size(); ++i) ops.e.result(mu[i], "['opt_state']['mu']" + params_[i].path);
  for (size_t i = 0; i < params_.size(); ++i) ops.e.result(nu[i], "['opt_state']['nu']" + params_[i].path);
}

int64_t ParamSet::numElements() const {
  int64_t n = 0;
  for (const Param &p : params_) {
    int64_t k = 1;
    for (int64_t d : p.shape) k *= d;
    n += k;
  }
  return n;
}

Tensor layerNorm(Ops &ops, const Tensor &x, const Tensor &g, const Tensor &b, LayerNormCache &cache) {
  double invD = 1.0 / double(x.shape.back());
  Tensor mean = ops.e.reduce(x, {x.rank() - 1});
  Tensor xc = ops.sub(x, ops.overLast(ops.scale(mean, invD), x));
  Tensor var = ops.scale(ops.sumLast(ops.mul(xc, xc)), invD);
  cache.rstd = ops.e.unary("rsqrt", ops.shift(var, 1e-5));
  cache.xhat = ops.mul(xc, ops.overLast(cache.rstd, x));
  Tensor shift = ops.alongLast(b, x);
  Tensor scaled = ops.mul(cache.xhat, ops.alongLast(g, x));
  return ops.add(scaled, shift);
}

Tensor layerNormGrad(Ops &ops, const Tensor &dy, const Tensor &g, const LayerNormCache &cache, Tensor &dg,
                     Tensor &db) {
  double invD = 1.0 / double(dy.shape.back());
  dg = ops.sumLeading(ops.mul(dy, cache.xhat));
  db = ops.sumLeading(dy);
  Tensor dxhat = ops.mul(dy, ops.alongLast(g, dy));
  Tensor a = ops.scale(ops.sumLast(dxhat), invD);
  Tensor c = ops.scale(ops.sumLast(ops.mul(dxhat, cache.xhat)), invD);
  Tensor cTerm = ops.mul(cache.xhat, ops.overLast(c, dy));
  Tensor aTerm = ops.sub(dxhat, ops.overLast(a, dy));
  Tensor inner = ops.sub(aTerm, cTerm);
  return ops.mul(ops.overLast(cache.rstd, dy), inner);
}

Tensor rmsNorm(Ops &ops, const Tensor &x, const Tensor &g, LayerNormCache &cache) {
  double invD = 1.0 / double(x.shape.back());
  Tensor ms = ops.scale(ops.sumLast(ops.mul(x, x)), invD);
  cache.rstd = ops.e.unary("rsqrt", ops.shift(ms, 1e-6));
  cache.xhat = ops.mul(x, ops.overLast(cache.rstd, x));
  return ops.mul(cache.xhat, ops.alongLast(g, x));
}

Tensor rmsNormGrad(Ops &ops, const Tensor &dy, const Tensor &g, const LayerNormCache &cache, Tensor &dg) {
  double invD = 1.0 / double(dy.shape.back());
  dg = ops.sumLeading(ops.mul(dy, cache.xhat));
  Tensor dxhat = ops.mul(dy, ops.alongLast(g, dy));
  Tensor c = ops.scale(ops.sumLast(ops.mul(dxhat, cache.xhat)), invD);
  Tensor inner = ops.sub(dxhat, ops.mul(cache.xhat, ops.overLast(c, dy)));
  return ops.mul(ops.overLast(cache.rstd, dy), inner);
}

namespace {
constexpr double kGeluC = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluA = 0.044715;
}  // namespace

Tensor gelu(Ops &ops, const Tensor &h) {
  Tensor h3 = ops.mul(ops.mul(h, h), h);
  Tensor t = ops.e.unary("tanh", ops.scale(ops.add(h, ops.scale(h3, kGeluA)), kGeluC));
  Tensor onePlusT = ops.shift(t, 1);
  return ops.mul(ops.scale(h, 0.5), onePlusT);
}

Tensor geluGrad(Ops &ops, const Tensor &h, const Tensor &dy) {
  Tensor h2 = ops.mul(h, h);
  Tensor t = ops.e.unary("tanh", ops.scale(ops.add(h, ops.scale(ops.mul(h2, h), kGeluA)), kGeluC));
  Tensor left = ops.scale(ops.shift(t, 1), 0.5);
  Tensor t2 = ops.mul(t, t);
  Tensor oneMinusT2 = ops.sub(ops.e.splat(1, t.shape, t.dtype), t2);
  Tensor du = ops.scale(ops.shift(ops.scale(h2, 3 * kGeluA), 1), kGeluC);
  Tensor right = ops.mul(ops.mul(ops.scale(h, 0.5), oneMinusT2), du);
  return ops.mul(dy, ops.add(left, right));
}

Tensor dropoutMask(Ops &ops, Dropout &d, const Shape &shape) {
  StablehloEmitter &e = ops.e;
  auto [next, bits] = e.rngBitGenerator(d.state, shape, "ui32");
  d.state = next;
  // jax.random.uniform: (bits >> 9) | bits(1.0f) is a float in [1, 2).
  Tensor mantissa = e.binary("shift_right_logical", bits, e.splat(32 - 23, shape, "ui32"));
  Tensor one = e.binary("or", mantissa, e.splat(0x3F800000, shape, "ui32"));
  Tensor floats = e.bitcastConvert(one, "f32");  // (one statement each: a fixed order of the ops)
  Tensor u = ops.sub(floats, e.splat(1.0, shape, "f32"));
  return e.compare("LT", u, e.splat(1.0 - d.rate, shape, "f32"));
}

Tensor dropoutApply(Ops &ops, const Dropout &d, const Tensor &keep, const Tensor &x) {
  Tensor scaled = ops.div(x, ops.e.splat(1.0 - d.rate, x.shape, x.dtype));
  return ops.e.select(keep, scaled, ops.e.splat(0, x.shape, x.dtype));
}

Tensor relu(Ops &ops, const Tensor &h) { return ops.e.binary("maximum", h, ops.e.splat(0, h.shape, h.dtype)); }

Tensor reluGrad(Ops &ops, const Tensor &h, const Tensor &dy) {
  Tensor zero = ops.e.splat(0, h.shape, h.dtype);
  return ops.e.select(ops.e.compare("GT", h, zero), dy, zero);
}

Tensor softmaxCrossEntropy(Ops &ops, const Tensor &logits, const Tensor &targets, Tensor &dlogits) {
  int64_t last = logits.rank() - 1;
  double count = 1;
  for (int64_t i = 0; i < last; ++i) count *= double(logits.shape[i]);
  Tensor mx = ops.e.reduce(logits, {last}, "maximum");
  Tensor z = ops.sub(logits, ops.overLast(mx, logits));
  Tensor ez = ops.e.unary("exponential", z);
  Tensor se = ops.sumLast(ez);
  Tensor lse = ops.e.unary("log", se);
  Tensor classes = ops.e.iota(logits.shape, last, targets.dtype);
  Tensor hit = ops.e.compare("EQ", classes, ops.overLast(targets, classes));
  Tensor onehot = ops.e.convert(hit, logits.dtype);
  Tensor picked = ops.sumLast(ops.mul(z, onehot));
  Tensor nll = ops.sub(lse, picked);
  Dims all;
  for (int64_t i = 0; i < nll.rank(); ++i) all.push_back(i);
  Tensor loss = ops.scale(ops.e.reduce(nll, all), 1.0 / count);
  Tensor probs = ops.div(ez, ops.overLast(se, logits));
  dlogits = ops.scale(ops.sub(probs, onehot), 1.0 / count);
  return loss;
}

Tensor linear(Ops &ops, const Tensor &x, const Tensor &w, const Tensor *b) {
  Tensor y = ops.e.dot(x, w, {}, {}, {x.rank() - 1}, {0});
  return b ? ops.add(y, ops.alongLast(*b, y)) : y;
}

Tensor linearGrad(Ops &ops, const Tensor &x, const Tensor &w, const Tensor &dy, Tensor &dw, Tensor *db,
                  bool needDx) {
  Dims leading;
  for (int64_t i = 0; i + 1 < x.rank(); ++i) leading.push_back(i);
  dw = ops.e.dot(x, dy, {}, {}, leading, leading);
  if (db) *db = ops.sumLeading(dy);
  if (!needDx) return {};
  return ops.e.dot(dy, w, {}, {}, {dy.rank() - 1}, {1});
}

Tensor conv(Ops &ops, const Tensor &x, const Tensor &w, const Tensor *b, int64_t stride) {
  Tensor y = ops.e.conv2d(x, w, stride);
  return b ? ops.add(y, ops.alongLast(*b, y)) : y;
}

Tensor convGrad(Ops &ops, const Tensor &x, const Tensor &w, const Tensor &dy, int64_t stride, Tensor &dw, Tensor *db,
                bool needDx) {
  if (x.rank() != 4 || w.rank() != 4 || dy.rank() != 4) throw GenError("convGrad: NHWC input and HWIO kernel");
  // The paddings of JAX's _conv_general_vjp_{rhs,lhs}_padding for the
  // forward window (pad k/2 each side, `stride`), per spatial dimension.
  ConvSpec kernelGrad, inputGrad;
  kernelGrad.lhs = "f01b";
  kernelGrad.rhs = "i01o";
  kernelGrad.out = "01bf";
  inputGrad.rhs = "01oi";
  for (size_t s = 0; s < 2; ++s) {
    int64_t in = x.shape[1 + s], k = w.shape[s], out = dy.shape[1 + s];
    int64_t lo = k / 2, outDilated = (out - 1) * stride + 1;
    kernelGrad.pad[s] = {lo, outDilated - in + (k - 1 - lo)};
    kernelGrad.rhsDilate[s] = stride;
    int64_t before = k - 1 - lo;
    inputGrad.pad[s] = {before, in + k - 1 - outDilated - before};
    inputGrad.lhsDilate[s] = stride;
  }
  dw = ops.e.convolution(x, dy, kernelGrad);
  if (dw.shape != w.shape) throw GenError("convGrad: kernel gradient of the wrong shape");
  if (db) *db = ops.sumLeading(dy);
  if (!needDx) return {};
  Tensor dx = ops.e.convolution(dy, ops.e.reverse(w, {0, 1}), inputGrad);
  if (dx.shape != x.shape) throw GenError("convGrad: input gradient of the wrong shape");
  return dx;
}

}  // namespace autopart::gen
