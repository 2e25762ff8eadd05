#include "gen/Transformer.h"

#include <cmath>

namespace autopart::gen {

Tensor softmaxLast(Ops &ops, const Tensor &s) {
  Tensor mx = ops.e.reduce(s, {s.rank() - 1}, "maximum");
  Tensor ez = ops.e.unary("exponential", ops.sub(s, ops.overLast(mx, s)));
  return ops.div(ez, ops.overLast(ops.sumLast(ez), s));
}

AttentionParams declareAttention(ParamSet &params, const std::string &prefix, int64_t M, int64_t H, int64_t D) {
  AttentionParams a;
  a.wq = params.declare(prefix + "['wq']", {M, H, D});
  a.wk = params.declare(prefix + "['wk']", {M, H, D});
  a.wv = params.declare(prefix + "['wv']", {M, H, D});
  a.wo = params.declare(prefix + "['wo']", {H, D, M});
  return a;
}

namespace {
double invSqrtHeadDim(const ParamSet &params, const AttentionParams &P) {
  return 1.0 / std::sqrt(double(params[P.wq].shape[2]));
}
}  // namespace

Tensor attention(Ops &ops, const ParamSet &params, const AttentionParams &P, const Tensor &xq, const Tensor &xkv,
                 const Tensor *mask, AttentionCache &C, Dropout *dropout) {
  StablehloEmitter &e = ops.e;
  C.xq = xq;
  C.xkv = xkv;
  C.q = e.dot(xq, params[P.wq], {}, {}, {2}, {0});   // [B,Sq,H,Dh]
  C.k = e.dot(xkv, params[P.wk], {}, {}, {2}, {0});  // [B,Sk,H,Dh]
  C.v = e.dot(xkv, params[P.wv], {}, {}, {2}, {0});
  Tensor s = ops.scale(e.dot(C.q, C.k, {0, 2}, {0, 2}, {3}, {3}), invSqrtHeadDim(params, P));  // [B,H,Sq,Sk]
  if (mask) s = e.select(*mask, s, e.splat(-1e9, s.shape));
  C.p = softmaxLast(ops, s);
  C.pd = C.p;
  if (dropout && dropout->on()) {
    C.drop = *dropout;
    C.keep = dropoutMask(ops, *dropout, C.p.shape);
    C.pd = dropoutApply(ops, C.drop, C.keep, C.p);
  }
  C.a = e.dot(C.pd, C.v, {0, 1}, {0, 2}, {3}, {1});  // [B,H,Sq,Dh]
  return e.dot(C.a, params[P.wo], {}, {}, {1, 3}, {0, 1});
}

Tensor attentionGrad(Ops &ops, ParamSet &params, const AttentionParams &P, const AttentionCache &C,
                     const Tensor &dy, Tensor *dxkv) {
  StablehloEmitter &e = ops.e;
  params.setGrad(P.wo, e.dot(C.a, dy, {}, {}, {0, 2}, {0, 1}));
  Tensor da = e.transpose(e.dot(dy, params[P.wo], {}, {}, {2}, {2}), {0, 2, 1, 3});
  Tensor dp = e.dot(da, C.v, {0, 1}, {0, 2}, {3}, {3});
  if (!C.keep.name.empty()) dp = dropoutApply(ops, C.drop, C.keep, dp);  // through the dropout
  Tensor dv = e.transpose(e.dot(C.pd, da, {0, 1}, {0, 1}, {2}, {2}), {0, 2, 1, 3});
  // Softmax backward; the mask's select passes the gradient where it kept
  // the score and p is ~0 where it did not.
  Tensor ds = ops.mul(C.p, ops.sub(dp, ops.overLast(ops.sumLast(ops.mul(dp, C.p)), dp)));
  ds = ops.scale(ds, invSqrtHeadDim(params, P));
  Tensor dq = e.transpose(e.dot(ds, C.k, {0, 1}, {0, 2}, {3}, {1}), {0, 2, 1, 3});
  Tensor dk = e.transpose(e.dot(ds, C.q, {0, 1}, {0, 2}, {2}, {1}), {0, 2, 1, 3});
  Tensor dxq, dkv;
  struct Proj {
    size_t w;
    const Tensor &d, &x;
    Tensor &into;
  };
  const Proj proj[] = {{P.wq, dq, C.xq, dxq}, {P.wk, dk, C.xkv, dxkv ? dkv : dxq}, {P.wv, dv, C.xkv, dxkv ? dkv : dxq}};
  for (const Proj &p : proj) {
    params.setGrad(p.w, e.dot(p.x, p.d, {}, {}, {0, 1}, {0, 1}));
    Tensor part = e.dot(p.d, params[p.w], {}, {}, {2, 3}, {1, 2});
    p.into = p.into.name.empty() ? part : ops.add(p.into, part);
  }
  if (dxkv) *dxkv = dkv;
  return dxq;
}

MlpParams declareMlp(ParamSet &params, const std::string &prefix, int64_t M, int64_t F, bool bias, Activation act) {
  MlpParams m;
  m.act = act;
  m.w1 = params.declare(prefix + "['w1']", {M, F});
  if (bias) m.b1 = params.declare(prefix + "['b1']", {F});
  m.w2 = params.declare(prefix + "['w2']", {F, M});
  if (bias) m.b2 = params.declare(prefix + "['b2']", {M});
  return m;
}

Tensor mlpHidden(Ops &ops, const ParamSet &params, const MlpParams &P, const Tensor &x, MlpCache &C) {
  C.x = x;
  C.m1 = linear(ops, x, params[P.w1], P.b1 ? &params[*P.b1] : nullptr);
  C.g1 = P.act == Activation::Gelu ? gelu(ops, C.m1) : relu(ops, C.m1);
  return C.g1;
}

Tensor mlpOutput(Ops &ops, const ParamSet &params, const MlpParams &P, const Tensor &g1) {
  return linear(ops, g1, params[P.w2], P.b2 ? &params[*P.b2] : nullptr);
}

Tensor mlpBlock(Ops &ops, const ParamSet &params, const MlpParams &P, const Tensor &x, MlpCache &C) {
  return mlpOutput(ops, params, P, mlpHidden(ops, params, P, x, C));
}

Tensor mlpBlockGrad(Ops &ops, ParamSet &params, const MlpParams &P, const MlpCache &C, const Tensor &dy) {
  Tensor dw2, db2, dw1, db1;
  Tensor dg1 = linearGrad(ops, C.g1, params[P.w2], dy, dw2, P.b2 ? &db2 : nullptr);
  Tensor dm1 = P.act == Activation::Gelu ? geluGrad(ops, C.m1, dg1) : reluGrad(ops, C.m1, dg1);
  Tensor dx = linearGrad(ops, C.x, params[P.w1], dm1, dw1, P.b1 ? &db1 : nullptr);
  params.setGrad(P.w2, dw2);
  params.setGrad(P.w1, dw1);
  if (P.b2) params.setGrad(*P.b2, db2);
  if (P.b1) params.setGrad(*P.b1, db1);
  return dx;
}

}  // namespace autopart::gen
