// The transformer blocks the gpt and t5 generators share: multi-head
// attention (self or cross) and the two-layer MLP, each a forward function
// that fills a cache and a backward function that sets the block's
// parameter gradients and returns its input gradient, in JAX's layout:
// activations [B, S, M], projections [M, H, Dh] and [H, Dh, M].
//
//   AttentionParams a = declareAttention(params, "['layers'][0]['attn']", M, H, Dh);
//   params.materialize(e);
//   AttentionCache c;
//   Tensor y = attention(ops, params, a, h, h, &causal, c);   // [B,S,M]
//   ...
//   Tensor dh = attentionGrad(ops, params, a, c, dy, nullptr); // self-attention: one input gradient
//
// Cross-attention passes the encoder output as the key/value input and gets
// its gradient separately:
//   attention(ops, params, a, decoderH, encoderOut, nullptr, c);
//   Tensor dDecoderH = attentionGrad(ops, params, a, c, dy, &dEncoderOut);
#pragma once

#include <optional>
#include <string>

#include "gen/Layers.h"

namespace autopart::gen {

// Softmax over the last dimension (max-subtracted, as jax.nn.softmax).
Tensor softmaxLast(Ops &ops, const Tensor &s);

struct AttentionParams {
  size_t wq, wk, wv, wo;
};
// Declares `prefix['wq']`, `['wk']`, `['wv']` [M, H, Dh] and `['wo']` [H, Dh, M].
AttentionParams declareAttention(ParamSet &params, const std::string &prefix, int64_t M, int64_t H, int64_t D);

struct AttentionCache {
  Tensor xq, xkv, q, k, v, p, a;
  Tensor pd;       // the probabilities v is weighted by: p, or p after dropout
  Tensor keep;     // the dropout mask on p (empty: no dropout)
  Dropout drop;    // its rate
};
// Queries from xq [B, Sq, M] attend to keys and values from xkv [B, Sk, M];
// scores scaled by 1/sqrt(Dh); `mask` (i1 [B, H, Sq, Sk], true keeps) is
// optional. With `dropout` on, the softmax probabilities go through dropout
// (a mask drawn from its state) before they weight v. Returns the projected
// output [B, Sq, M] (no residual).
Tensor attention(Ops &ops, const ParamSet &params, const AttentionParams &P, const Tensor &xq, const Tensor &xkv,
                 const Tensor *mask, AttentionCache &C, Dropout *dropout = nullptr);
// Gradient of attention's output `dy`: sets wq, wk, wv, wo gradients and
// returns the gradient of xq. With `dxkv` the gradient of xkv goes there
// (cross-attention); without, xq is xkv and all three projections' input
// gradients are summed into the result.
Tensor attentionGrad(Ops &ops, ParamSet &params, const AttentionParams &P, const AttentionCache &C,
                     const Tensor &dy, Tensor *dxkv);

enum class Activation { Gelu, Relu };

struct MlpParams {
  size_t w1, w2;
  std::optional<size_t> b1, b2;
  Activation act;
};
// Declares `prefix['w1']` [M, F], `['b1']` [F], `['w2']` [F, M], `['b2']` [M]
// (the biases only with `bias`).
MlpParams declareMlp(ParamSet &params, const std::string &prefix, int64_t M, int64_t F, bool bias, Activation act);

struct MlpCache {
  Tensor x, m1, g1;
};
// act(x . w1 + b1): what mlpBlockGrad needs, without the output projection
// (a recomputation for the backward stops here, as jax.checkpoint's does:
// the output's value is not needed for any gradient).
Tensor mlpHidden(Ops &ops, const ParamSet &params, const MlpParams &P, const Tensor &x, MlpCache &C);
// g1 . w2 + b2 for g1 from mlpHidden.
Tensor mlpOutput(Ops &ops, const ParamSet &params, const MlpParams &P, const Tensor &g1);
// act(x . w1 + b1) . w2 + b2 (no residual).
Tensor mlpBlock(Ops &ops, const ParamSet &params, const MlpParams &P, const Tensor &x, MlpCache &C);
Tensor mlpBlockGrad(Ops &ops, ParamSet &params, const MlpParams &P, const MlpCache &C, const Tensor &dy);

}  // namespace autopart::gen
