// GPT-style decoder training step. Per layer (pre-LayerNorm):
//
//   h = LN1(x); q, k, v = h . wq, h . wk, h . wv        [B,S,M] . [M,H,Dh] -> [B,S,H,Dh]
//   s = causal(q . k^T / sqrt(Dh))                     [B,H,S,S]
//   a = softmax(s) . v                                  [B,H,S,Dh]
//   x = x + a . wo                                      [B,H,S,Dh] . [H,Dh,M] -> [B,S,M]
//   x = x + gelu(LN2(x) . w1 + b1) . w2 + b2           M -> F -> M
//
// then a final LayerNorm, logits against the tied token embedding,
// cross-entropy, the backward pass of all of it and Adam. The token lookup
// is a gather and its gradient a scatter-add, as jnp.take lowers.
#include <cmath>

#include "gen/Layers.h"
#include "gen/Models.h"

namespace autopart::gen {

namespace {

struct LayerParams {
  size_t ln1g, ln1b, wq, wk, wv, wo, ln2g, ln2b, w1, b1, w2, b2;
};

struct LayerCache {
  Tensor x, h1, q, k, v, p, a, x1, h2, m1, g1;
  LayerNormCache ln1, ln2;
};

Tensor softmaxLast(Ops &ops, const Tensor &s) {
  Tensor mx = ops.e.reduce(s, {s.rank() - 1}, "maximum");
  Tensor ez = ops.e.unary("exponential", ops.sub(s, ops.overLast(mx, s)));
  return ops.div(ez, ops.overLast(ops.sumLast(ez), s));
}

}  // namespace

std::vector<std::string> gptPresetNames() { return {"125m", "350m", "760m", "1.3b", "2.7b", "6.7b", "13b", "175b"}; }

std::optional<GptConfig> gptPreset(const std::string &name) {
  struct Row {
    const char *name;
    int64_t layers, dModel, heads, headDim, batch;
  };
  static const Row kRows[] = {
      {"125m", 12, 768, 12, 64, 256},     {"350m", 24, 1024, 16, 64, 256},   {"760m", 24, 1536, 16, 96, 256},
      {"1.3b", 24, 2048, 24, 128, 512},   {"2.7b", 32, 2560, 32, 80, 512},   {"6.7b", 32, 4096, 32, 128, 1024},
      {"13b", 40, 5140, 40, 128, 1024},   {"175b", 96, 12288, 96, 128, 1536},
  };
  for (const Row &r : kRows) {
    if (name != r.name) continue;
    GptConfig c;
    c.layers = r.layers;
    c.dModel = r.dModel;
    c.heads = r.heads;
    c.headDim = r.headDim;
    c.ffn = 4 * r.dModel;
    c.seq = 2048;
    c.batch = r.batch;
    c.vocab = 50304;
    return c;
  }
  return std::nullopt;
}

GenResult generateGpt(const GptConfig &c) {
  if (c.layers < 1 || c.dModel < 1 || c.heads < 1 || c.headDim < 1 || c.ffn < 1 || c.seq < 1 || c.batch < 1 ||
      c.vocab < 1)
    throw GenError("gpt: sizes must be positive");
  const int64_t B = c.batch, S = c.seq, M = c.dModel, H = c.heads, D = c.headDim, F = c.ffn, V = c.vocab;
  StablehloEmitter e(c.dtype);
  Ops ops{e};
  ParamSet params;
  size_t wte = params.declare("['wte']", {V, M});
  size_t wpe = params.declare("['wpe']", {S, M});
  std::vector<LayerParams> lp;
  for (int64_t l = 0; l < c.layers; ++l) {
    std::string p = "['layers'][" + std::to_string(l) + "]";
    LayerParams x;
    x.ln1g = params.declare(p + "['ln1']['scale']", {M});
    x.ln1b = params.declare(p + "['ln1']['bias']", {M});
    x.wq = params.declare(p + "['attn']['wq']", {M, H, D});
    x.wk = params.declare(p + "['attn']['wk']", {M, H, D});
    x.wv = params.declare(p + "['attn']['wv']", {M, H, D});
    x.wo = params.declare(p + "['attn']['wo']", {H, D, M});
    x.ln2g = params.declare(p + "['ln2']['scale']", {M});
    x.ln2b = params.declare(p + "['ln2']['bias']", {M});
    x.w1 = params.declare(p + "['mlp']['w1']", {M, F});
    x.b1 = params.declare(p + "['mlp']['b1']", {F});
    x.w2 = params.declare(p + "['mlp']['w2']", {F, M});
    x.b2 = params.declare(p + "['mlp']['b2']", {M});
    lp.push_back(x);
  }
  size_t lnfg = params.declare("['ln_f']['scale']", {M});
  size_t lnfb = params.declare("['ln_f']['bias']", {M});
  params.materialize(e);
  Tensor tokens = e.arg({B, S}, "batch['tokens']", "i32");
  Tensor targets = e.arg({B, S}, "batch['targets']", "i32");
  const double invSqrtD = 1.0 / std::sqrt(double(D));

  // Forward.
  Tensor idx = e.reshape(tokens, {B, S, 1});
  Tensor x = ops.add(e.gatherRows(params[wte], idx), e.broadcast(params[wpe], {B, S, M}, {1, 2}));
  Tensor causal = e.compare("GE", e.iota({B, H, S, S}, 2), e.iota({B, H, S, S}, 3));
  std::vector<LayerCache> cache(lp.size());
  for (size_t l = 0; l < lp.size(); ++l) {
    const LayerParams &P = lp[l];
    LayerCache &C = cache[l];
    C.x = x;
    C.h1 = layerNorm(ops, x, params[P.ln1g], params[P.ln1b], C.ln1);
    C.q = e.dot(C.h1, params[P.wq], {}, {}, {2}, {0});
    C.k = e.dot(C.h1, params[P.wk], {}, {}, {2}, {0});
    C.v = e.dot(C.h1, params[P.wv], {}, {}, {2}, {0});
    Tensor s = ops.scale(e.dot(C.q, C.k, {0, 2}, {0, 2}, {3}, {3}), invSqrtD);
    s = e.select(causal, s, e.splat(-1e9, s.shape));
    C.p = softmaxLast(ops, s);
    C.a = e.dot(C.p, C.v, {0, 1}, {0, 2}, {3}, {1});
    C.x1 = ops.add(x, e.dot(C.a, params[P.wo], {}, {}, {1, 3}, {0, 1}));
    C.h2 = layerNorm(ops, C.x1, params[P.ln2g], params[P.ln2b], C.ln2);
    C.m1 = linear(ops, C.h2, params[P.w1], &params[P.b1]);
    C.g1 = gelu(ops, C.m1);
    x = ops.add(C.x1, linear(ops, C.g1, params[P.w2], &params[P.b2]));
  }
  LayerNormCache lnf;
  Tensor xf = layerNorm(ops, x, params[lnfg], params[lnfb], lnf);
  Tensor logits = e.dot(xf, params[wte], {}, {}, {2}, {1});
  Tensor dlogits;
  Tensor loss = softmaxCrossEntropy(ops, logits, targets, dlogits);

  // Backward.
  params.setGrad(wte, e.dot(dlogits, xf, {}, {}, {0, 1}, {0, 1}));
  Tensor dxf = e.dot(dlogits, params[wte], {}, {}, {2}, {0});
  Tensor dg, db;
  Tensor dx = layerNormGrad(ops, dxf, params[lnfg], lnf, dg, db);
  params.setGrad(lnfg, dg);
  params.setGrad(lnfb, db);
  for (size_t l = lp.size(); l-- > 0;) {
    const LayerParams &P = lp[l];
    const LayerCache &C = cache[l];
    // MLP.
    Tensor dw2, db2, dw1, db1;
    Tensor dg1 = linearGrad(ops, C.g1, params[P.w2], dx, dw2, &db2);
    Tensor dm1 = geluGrad(ops, C.m1, dg1);
    Tensor dh2 = linearGrad(ops, C.h2, params[P.w1], dm1, dw1, &db1);
    params.setGrad(P.w2, dw2);
    params.setGrad(P.b2, db2);
    params.setGrad(P.w1, dw1);
    params.setGrad(P.b1, db1);
    Tensor dln2g, dln2b;
    Tensor dx1 = ops.add(dx, layerNormGrad(ops, dh2, params[P.ln2g], C.ln2, dln2g, dln2b));
    params.setGrad(P.ln2g, dln2g);
    params.setGrad(P.ln2b, dln2b);
    // Attention.
    params.setGrad(P.wo, e.dot(C.a, dx1, {}, {}, {0, 2}, {0, 1}));
    Tensor da = e.transpose(e.dot(dx1, params[P.wo], {}, {}, {2}, {2}), {0, 2, 1, 3});
    Tensor dp = e.dot(da, C.v, {0, 1}, {0, 2}, {3}, {3});
    Tensor dv = e.transpose(e.dot(C.p, da, {0, 1}, {0, 1}, {2}, {2}), {0, 2, 1, 3});
    Tensor ds = ops.mul(C.p, ops.sub(dp, ops.overLast(ops.sumLast(ops.mul(dp, C.p)), dp)));
    ds = ops.scale(ds, invSqrtD);
    Tensor dq = e.transpose(e.dot(ds, C.k, {0, 1}, {0, 2}, {3}, {1}), {0, 2, 1, 3});
    Tensor dk = e.transpose(e.dot(ds, C.q, {0, 1}, {0, 2}, {2}, {1}), {0, 2, 1, 3});
    Tensor dh1;
    const std::pair<size_t, Tensor> proj[] = {{P.wq, dq}, {P.wk, dk}, {P.wv, dv}};
    for (const auto &[w, d] : proj) {
      params.setGrad(w, e.dot(C.h1, d, {}, {}, {0, 1}, {0, 1}));
      Tensor part = e.dot(d, params[w], {}, {}, {2, 3}, {1, 2});
      dh1 = dh1.name.empty() ? part : ops.add(dh1, part);
    }
    Tensor dln1g, dln1b;
    dx = ops.add(dx1, layerNormGrad(ops, dh1, params[P.ln1g], C.ln1, dln1g, dln1b));
    params.setGrad(P.ln1g, dln1g);
    params.setGrad(P.ln1b, dln1b);
  }
  params.addGrad(ops, wte, e.scatterAddRows(V, idx, dx));
  params.setGrad(wpe, e.reduce(dx, {0}));
  params.emitAdamUpdate(ops);
  e.result(loss, "['loss']");
  return {e.module("jit_train_step"), e.numOps(), params.numElements()};
}

}  // namespace autopart::gen
