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
//
// Mixed precision (masterDtype f32, dtype bf16): each parameter argument is
// f32 and gets one stablehlo.convert to bf16 where the forward first uses
// it (a layer's at the layer's start); gradients are converted back to f32
// in the Adam update. Full remat, per layer l in the backward:
//
//   %x:12 = stablehlo.optimization_barrier %in_l, %layer_l_params... : ...
//   (converts of %x#1..%x#11 with mixed precision)
//   LN1, attention, LN2, act(h2 . w1 + b1) recomputed from %x#0
//   the layer's backward, on the recomputed values
//
// which is what jax.checkpoint lowers to (its remat_p with prevent_cse puts
// every input of the recomputation through one barrier), after its dead
// code elimination: the MLP's output projection and the residual add are
// not recomputed, no gradient needs their values.
//
// Dropout (rate P > 0; Megatron-LM's GPT uses 0.1) at three sites a layer:
//
//   p  = dropout(softmax(s)); a = p . v                  mask [B,H,S,S]
//   x  = x + dropout(a . wo)                             mask [B,S,M]
//   x  = x + dropout(gelu(LN2(x) . w1 + b1) . w2 + b2)   mask [B,S,M]
//
// each mask from its own stablehlo.rng_bit_generator call; one state threads
// through the calls (the `rng` argument after the batch, tensor<2xui64>, to
// the ['rng'] result after the loss), three a layer in forward order. The
// backward applies each mask to the incoming gradient, select(mask, g / (1 -
// P), 0). With remat the state at the layer's entry goes through the
// barrier with its input and parameters (last), and the recomputation draws
// the same three masks from it, as jax.checkpoint recomputes bits from a
// fixed key rather than saving them; it applies the first two (the third
// masks the output projection it does not recompute) and its advanced
// state is not used.
#include "gen/Models.h"
#include "gen/Transformer.h"

namespace autopart::gen {

namespace {

struct LayerParams {
  size_t ln1g, ln1b, ln2g, ln2b;
  AttentionParams attn;
  MlpParams mlp;

  // In declaration order, which is the order of the arguments: casts and
  // barrier operands come out in the order JAX flattens the layer's pytree.
  std::vector<size_t> ids() const {
    std::vector<size_t> v = {ln1g, ln1b, attn.wq, attn.wk, attn.wv, attn.wo, ln2g, ln2b, mlp.w1};
    if (mlp.b1) v.push_back(*mlp.b1);
    v.push_back(mlp.w2);
    if (mlp.b2) v.push_back(*mlp.b2);
    return v;
  }
  // What a recomputation reads: all but the MLP's output bias (the output
  // is not recomputed and the bias's gradient needs no value), so JAX's
  // dead code elimination leaves it out of the barrier.
  std::vector<size_t> recomputedIds() const {
    std::vector<size_t> v = ids();
    if (mlp.b2) v.pop_back();
    return v;
  }
};

struct LayerCache {
  Tensor x1;
  LayerNormCache ln1, ln2;
  AttentionCache attn;
  MlpCache mlp;
  Tensor attnOutKeep, mlpOutKeep;  // hidden dropout masks; empty without dropout
};

// One layer's forward from x, filling C; its dropout masks come from
// `drop`, whose state it advances. Returns the layer's output; with
// `output` false (a recomputation) stops at what the backward reads, the
// MLP's hidden activation and its output's dropout mask, and returns
// nothing.
Tensor layerForward(Ops &ops, const ParamSet &params, const LayerParams &P, const Tensor &x, const Tensor &causal,
                    Dropout &drop, LayerCache &C, bool output) {
  Tensor h1 = layerNorm(ops, x, params[P.ln1g], params[P.ln1b], C.ln1);
  Tensor o = attention(ops, params, P.attn, h1, h1, &causal, C.attn, &drop);
  if (drop.on()) {
    C.attnOutKeep = dropoutMask(ops, drop, o.shape);
    o = dropoutApply(ops, drop, C.attnOutKeep, o);
  }
  C.x1 = ops.add(x, o);
  Tensor h2 = layerNorm(ops, C.x1, params[P.ln2g], params[P.ln2b], C.ln2);
  Tensor g1 = mlpHidden(ops, params, P.mlp, h2, C.mlp);
  if (!output) {
    if (drop.on()) C.mlpOutKeep = dropoutMask(ops, drop, C.x1.shape);
    return {};
  }
  Tensor y = mlpOutput(ops, params, P.mlp, g1);
  if (drop.on()) {
    C.mlpOutKeep = dropoutMask(ops, drop, y.shape);
    y = dropoutApply(ops, drop, C.mlpOutKeep, y);
  }
  return ops.add(C.x1, y);
}

// Full remat of one layer: its saved input, the parameters the
// recomputation reads (master type) and, with dropout, the rng state the
// layer's forward started from (`entry`) through one optimization_barrier,
// the parameters re-cast from the barrier's results, the forward re-emitted
// into C (its masks drawn again from the barriered state).
void recomputeLayer(Ops &ops, ParamSet &params, const LayerParams &P, const Tensor &input, const Dropout &entry,
                    const Tensor &causal, LayerCache &C) {
  std::vector<size_t> ids = P.recomputedIds();
  std::vector<Tensor> saved = {input};
  for (size_t i : ids) saved.push_back(params.master(i));
  if (entry.on()) saved.push_back(entry.state);
  std::vector<Tensor> kept = ops.e.optimizationBarrier(saved);
  for (size_t k = 0; k < ids.size(); ++k) params.rebind(ids[k], kept[k + 1]);
  params.cast(ops.e, ids);
  Dropout drop = entry;
  if (drop.on()) drop.state = kept.back();
  layerForward(ops, params, P, kept[0], causal, drop, C, /*output=*/false);
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

static GenResult buildGpt(const GptConfig &c) {
  if (c.layers < 1 || c.dModel < 1 || c.heads < 1 || c.headDim < 1 || c.ffn < 1 || c.seq < 1 || c.batch < 1 ||
      c.vocab < 1)
    throw GenError("gpt: sizes must be positive");
  const std::string master = c.masterDtype.empty() ? c.dtype : c.masterDtype;
  // Masters are kept at least as precise as the compute: f32, or the
  // compute type itself (no mixed precision).
  if (master != c.dtype && master != "f32")
    throw GenError("gpt: master type " + master + " with compute type " + c.dtype + ": masters must be " +
                   (c.dtype == "f32" ? "f32" : "f32 (mixed precision) or " + c.dtype));
  if (!(c.dropout >= 0 && c.dropout < 1)) throw GenError("gpt: dropout must be in [0, 1)");
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
    x.attn = declareAttention(params, p + "['attn']", M, H, D);
    x.ln2g = params.declare(p + "['ln2']['scale']", {M});
    x.ln2b = params.declare(p + "['ln2']['bias']", {M});
    x.mlp = declareMlp(params, p + "['mlp']", M, F, /*bias=*/true, Activation::Gelu);
    lp.push_back(x);
  }
  size_t lnfg = params.declare("['ln_f']['scale']", {M});
  size_t lnfb = params.declare("['ln_f']['bias']", {M});
  params.materialize(e, master);
  Tensor tokens = e.arg({B, S}, "batch['tokens']", "i32");
  Tensor targets = e.arg({B, S}, "batch['targets']", "i32");
  Dropout drop{c.dropout, {}};
  if (drop.on()) drop.state = e.arg({2}, "rng", "ui64");

  // Forward.
  Tensor idx = e.reshape(tokens, {B, S, 1});
  params.cast(e, {wte, wpe});
  // One op per statement: the order of a call's arguments is unspecified,
  // and the emitted program must not depend on the compiler.
  Tensor positions = e.broadcast(params[wpe], {B, S, M}, {1, 2});
  Tensor embedded = e.gatherRows(params[wte], idx);
  Tensor x = ops.add(embedded, positions);
  Tensor keyIndex = e.iota({B, H, S, S}, 3);
  Tensor queryIndex = e.iota({B, H, S, S}, 2);
  Tensor causal = e.compare("GE", queryIndex, keyIndex);
  std::vector<LayerCache> cache(lp.size());
  std::vector<Tensor> inputs(lp.size());  // what full remat keeps of a layer
  std::vector<Dropout> entry(lp.size());  // and the rng state it started from
  for (size_t l = 0; l < lp.size(); ++l) {
    params.cast(e, lp[l].ids());
    inputs[l] = x;
    entry[l] = drop;
    x = layerForward(ops, params, lp[l], x, causal, drop, cache[l], /*output=*/true);
  }
  params.cast(e, {lnfg, lnfb});
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
    // With remat the forward's values of this layer are not kept: its
    // backward reads the recomputed ones.
    if (c.remat == Remat::Full) recomputeLayer(ops, params, P, inputs[l], entry[l], causal, cache[l]);
    const LayerCache &C = cache[l];
    // Each dropout's mask applied to its output's gradient.
    Tensor dy = drop.on() ? dropoutApply(ops, drop, C.mlpOutKeep, dx) : dx;
    Tensor dh2 = mlpBlockGrad(ops, params, P.mlp, C.mlp, dy);
    Tensor dln2g, dln2b;
    Tensor dx1 = ops.add(dx, layerNormGrad(ops, dh2, params[P.ln2g], C.ln2, dln2g, dln2b));
    params.setGrad(P.ln2g, dln2g);
    params.setGrad(P.ln2b, dln2b);
    Tensor dattn = drop.on() ? dropoutApply(ops, drop, C.attnOutKeep, dx1) : dx1;
    Tensor dh1 = attentionGrad(ops, params, P.attn, C.attn, dattn, nullptr);
    Tensor dln1g, dln1b;
    dx = ops.add(dx1, layerNormGrad(ops, dh1, params[P.ln1g], C.ln1, dln1g, dln1b));
    params.setGrad(P.ln1g, dln1g);
    params.setGrad(P.ln1b, dln1b);
  }
  params.addGrad(ops, wte, e.scatterAddRows(V, idx, dx));
  params.setGrad(wpe, e.reduce(dx, {0}));
  params.emitAdamUpdate(ops);
  e.result(loss, "['loss']");
  if (drop.on()) e.result(drop.state, "['rng']");
  return {e.module("jit_train_step"), e.numOps(), params.numElements()};
}

std::optional<GenResult> generateGpt(const GptConfig &c, Diagnostics &diags) {
  return guarded(diags, [&] { return buildGpt(c); });
}

}  // namespace autopart::gen
