// T5-style encoder-decoder training step. With RMSNorm N and the shared
// embedding E [V, M]:
//
//   encoder, per layer:  x = x + attn(N(x), N(x))           bidirectional
//                        x = x + relu(N(x) . w1) . w2        M -> F -> M
//   enc = N(x)
//   decoder, per layer:  y = y + attn(N(y), N(y), causal)
//                        y = y + attn(N(y), enc)             cross: keys, values from enc
//                        y = y + relu(N(y) . w1) . w2
//   logits = (N(y) / sqrt(M)) . E^T                          tied output projection
//
// then cross-entropy against the targets, the backward pass (the encoder
// output's gradient sums every decoder layer's cross-attention) and Adam.
// Both token lookups are gathers from E and their gradients scatter-adds.
#include <cmath>

#include "gen/Models.h"
#include "gen/Transformer.h"

namespace autopart::gen {

namespace {

struct EncoderLayer {
  size_t ln1, ln2;
  AttentionParams attn;
  MlpParams mlp;
};

struct DecoderLayer {
  size_t ln1, ln2, ln3;
  AttentionParams self, cross;
  MlpParams mlp;
};

struct EncoderCache {
  LayerNormCache ln1, ln2;
  AttentionCache attn;
  MlpCache mlp;
};

struct DecoderCache {
  LayerNormCache ln1, ln2, ln3;
  AttentionCache self, cross;
  MlpCache mlp;
};

// x + gradient through N of `dh` into x; sets the scale's gradient.
Tensor addNormGrad(Ops &ops, ParamSet &params, size_t scale, const LayerNormCache &cache, const Tensor &dx,
                   const Tensor &dh) {
  Tensor dg;
  Tensor d = ops.add(dx, rmsNormGrad(ops, dh, params[scale], cache, dg));
  params.setGrad(scale, dg);
  return d;
}

}  // namespace

std::vector<std::string> t5PresetNames() { return {"t5-small", "t5-base", "t5-large"}; }

std::optional<T5Config> t5Preset(const std::string &name) {
  struct Row {
    const char *name;
    int64_t layers, dModel, heads, ffn;
  };
  static const Row kRows[] = {
      {"t5-small", 6, 512, 8, 2048}, {"t5-base", 12, 768, 12, 3072}, {"t5-large", 24, 1024, 16, 4096}};
  for (const Row &r : kRows) {
    if (name != r.name) continue;
    T5Config c;
    c.encoderLayers = c.decoderLayers = r.layers;
    c.dModel = r.dModel;
    c.heads = r.heads;
    c.headDim = 64;
    c.ffn = r.ffn;
    c.encSeq = 512;
    c.decSeq = 128;
    c.batch = 128;
    c.vocab = 32128;
    return c;
  }
  return std::nullopt;
}

static GenResult buildT5(const T5Config &c) {
  if (c.encoderLayers < 1 || c.decoderLayers < 1 || c.dModel < 1 || c.heads < 1 || c.headDim < 1 || c.ffn < 1 ||
      c.encSeq < 1 || c.decSeq < 1 || c.batch < 1 || c.vocab < 1)
    throw GenError("t5: sizes must be positive");
  const int64_t B = c.batch, Se = c.encSeq, Sd = c.decSeq, M = c.dModel, H = c.heads, D = c.headDim, F = c.ffn,
                V = c.vocab;
  StablehloEmitter e(c.dtype);
  Ops ops{e};
  ParamSet params;
  size_t emb = params.declare("['embedding']", {V, M});
  std::vector<EncoderLayer> enc;
  for (int64_t l = 0; l < c.encoderLayers; ++l) {
    std::string p = "['encoder']['layers'][" + std::to_string(l) + "]";
    EncoderLayer x;
    x.ln1 = params.declare(p + "['ln1']['scale']", {M});
    x.attn = declareAttention(params, p + "['attn']", M, H, D);
    x.ln2 = params.declare(p + "['ln2']['scale']", {M});
    x.mlp = declareMlp(params, p + "['mlp']", M, F, /*bias=*/false, Activation::Relu);
    enc.push_back(x);
  }
  size_t encLnf = params.declare("['encoder']['ln_f']['scale']", {M});
  std::vector<DecoderLayer> dec;
  for (int64_t l = 0; l < c.decoderLayers; ++l) {
    std::string p = "['decoder']['layers'][" + std::to_string(l) + "]";
    DecoderLayer x;
    x.ln1 = params.declare(p + "['ln1']['scale']", {M});
    x.self = declareAttention(params, p + "['self_attn']", M, H, D);
    x.ln2 = params.declare(p + "['ln2']['scale']", {M});
    x.cross = declareAttention(params, p + "['cross_attn']", M, H, D);
    x.ln3 = params.declare(p + "['ln3']['scale']", {M});
    x.mlp = declareMlp(params, p + "['mlp']", M, F, /*bias=*/false, Activation::Relu);
    dec.push_back(x);
  }
  size_t decLnf = params.declare("['decoder']['ln_f']['scale']", {M});
  params.materialize(e);
  Tensor inputs = e.arg({B, Se}, "batch['inputs']", "i32");
  Tensor targets = e.arg({B, Sd}, "batch['targets']", "i32");

  // Encoder.
  Tensor encIdx = e.reshape(inputs, {B, Se, 1});
  Tensor x = e.gatherRows(params[emb], encIdx);
  std::vector<EncoderCache> encCache(enc.size());
  for (size_t l = 0; l < enc.size(); ++l) {
    const EncoderLayer &P = enc[l];
    EncoderCache &C = encCache[l];
    Tensor h1 = rmsNorm(ops, x, params[P.ln1], C.ln1);
    x = ops.add(x, attention(ops, params, P.attn, h1, h1, nullptr, C.attn));
    Tensor h2 = rmsNorm(ops, x, params[P.ln2], C.ln2);
    x = ops.add(x, mlpBlock(ops, params, P.mlp, h2, C.mlp));
  }
  LayerNormCache encLnfCache;
  Tensor encOut = rmsNorm(ops, x, params[encLnf], encLnfCache);

  // Decoder, fed the targets shifted right (teacher forcing).
  Tensor start = e.splat(0, {B, 1}, "i32");
  Tensor decIn = Sd == 1 ? start : e.concatenate({start, e.slice(targets, {0, 0}, {B, Sd - 1})}, 1);
  Tensor decIdx = e.reshape(decIn, {B, Sd, 1});
  Tensor y = e.gatherRows(params[emb], decIdx);
  // One op per statement: the order of a call's arguments is unspecified.
  Tensor keyIndex = e.iota({B, H, Sd, Sd}, 3);
  Tensor queryIndex = e.iota({B, H, Sd, Sd}, 2);
  Tensor causal = e.compare("GE", queryIndex, keyIndex);
  std::vector<DecoderCache> decCache(dec.size());
  for (size_t l = 0; l < dec.size(); ++l) {
    const DecoderLayer &P = dec[l];
    DecoderCache &C = decCache[l];
    Tensor h1 = rmsNorm(ops, y, params[P.ln1], C.ln1);
    y = ops.add(y, attention(ops, params, P.self, h1, h1, &causal, C.self));
    Tensor h2 = rmsNorm(ops, y, params[P.ln2], C.ln2);
    y = ops.add(y, attention(ops, params, P.cross, h2, encOut, nullptr, C.cross));
    Tensor h3 = rmsNorm(ops, y, params[P.ln3], C.ln3);
    y = ops.add(y, mlpBlock(ops, params, P.mlp, h3, C.mlp));
  }
  LayerNormCache decLnfCache;
  // T5 rescales before the tied projection, so logits do not grow with M.
  const double invSqrtM = 1.0 / std::sqrt(double(M));
  Tensor yf = ops.scale(rmsNorm(ops, y, params[decLnf], decLnfCache), invSqrtM);
  Tensor logits = e.dot(yf, params[emb], {}, {}, {2}, {1});
  Tensor dlogits;
  Tensor loss = softmaxCrossEntropy(ops, logits, targets, dlogits);

  // Backward: decoder, collecting the encoder output's gradient.
  params.setGrad(emb, e.dot(dlogits, yf, {}, {}, {0, 1}, {0, 1}));
  Tensor dyf = ops.scale(e.dot(dlogits, params[emb], {}, {}, {2}, {0}), invSqrtM);
  Tensor dg;
  Tensor dy = rmsNormGrad(ops, dyf, params[decLnf], decLnfCache, dg);
  params.setGrad(decLnf, dg);
  Tensor dEnc;
  for (size_t l = dec.size(); l-- > 0;) {
    const DecoderLayer &P = dec[l];
    const DecoderCache &C = decCache[l];
    dy = addNormGrad(ops, params, P.ln3, C.ln3, dy, mlpBlockGrad(ops, params, P.mlp, C.mlp, dy));
    Tensor dEncPart;
    Tensor dh2 = attentionGrad(ops, params, P.cross, C.cross, dy, &dEncPart);
    dEnc = dEnc.name.empty() ? dEncPart : ops.add(dEnc, dEncPart);
    dy = addNormGrad(ops, params, P.ln2, C.ln2, dy, dh2);
    dy = addNormGrad(ops, params, P.ln1, C.ln1, dy, attentionGrad(ops, params, P.self, C.self, dy, nullptr));
  }
  params.addGrad(ops, emb, e.scatterAddRows(V, decIdx, dy));

  // Encoder.
  Tensor dx = rmsNormGrad(ops, dEnc, params[encLnf], encLnfCache, dg);
  params.setGrad(encLnf, dg);
  for (size_t l = enc.size(); l-- > 0;) {
    const EncoderLayer &P = enc[l];
    const EncoderCache &C = encCache[l];
    dx = addNormGrad(ops, params, P.ln2, C.ln2, dx, mlpBlockGrad(ops, params, P.mlp, C.mlp, dx));
    dx = addNormGrad(ops, params, P.ln1, C.ln1, dx, attentionGrad(ops, params, P.attn, C.attn, dx, nullptr));
  }
  params.addGrad(ops, emb, e.scatterAddRows(V, encIdx, dx));
  params.emitAdamUpdate(ops);
  e.result(loss, "['loss']");
  return {e.module("jit_train_step"), e.numOps(), params.numElements()};
}

std::optional<GenResult> generateT5(const T5Config &c, Diagnostics &diags) {
  return guarded(diags, [&] { return buildT5(c); });
}

}  // namespace autopart::gen
