// U-Net training step on NHWC images. With levels = 2 and base width 32 on
// 64x64x3 images:
//
//   encoder 0:  conv 3->32, conv 32->32          64x64  (skip 0), down -> 32x32x32
//   encoder 1:  conv 32->64, conv 64->64         32x32  (skip 1), down -> 16x16x64
//   bottleneck: conv 64->128, conv 128->128      16x16
//   decoder 0:  up -> 32x32x128, concat skip 1 -> 192, conv 192->64, conv 64->64
//   decoder 1:  up -> 64x64x64, concat skip 0 -> 96, conv 96->32, conv 32->32
//   out:        1x1 conv 32->3, mean squared error against the target
//
// Every conv is 3x3 + bias + ReLU except the stride-2 downsampling (no
// activation) and the output. Upsampling repeats each pixel 2x2
// (broadcast_in_dim + reshape, as jnp.repeat lowers); its gradient reduces
// the 2x2 blocks. The backward convolutions are the ones jax.grad emits
// (gen/Layers.h convGrad).
#include "gen/Layers.h"
#include "gen/Models.h"

namespace autopart::gen {

namespace {

struct ConvLayer {
  size_t w, b;
  int64_t stride;
  bool relu;
};

struct ConvCache {
  Tensor x, z;
};

ConvLayer declareConv(ParamSet &params, const std::string &path, int64_t k, int64_t in, int64_t out, int64_t stride,
                      bool relu) {
  size_t w = params.declare(path + "['kernel']", {k, k, in, out});
  size_t b = params.declare(path + "['bias']", {out});
  return {w, b, stride, relu};
}

Tensor convLayer(Ops &ops, const ParamSet &params, const ConvLayer &L, const Tensor &x, ConvCache &C) {
  C.x = x;
  C.z = conv(ops, x, params[L.w], &params[L.b], L.stride);
  return L.relu ? relu(ops, C.z) : C.z;
}

Tensor convLayerGrad(Ops &ops, ParamSet &params, const ConvLayer &L, const ConvCache &C, const Tensor &dy,
                 bool needDx = true) {
  Tensor dz = L.relu ? reluGrad(ops, C.z, dy) : dy;
  Tensor dw, db;
  Tensor dx = convGrad(ops, C.x, params[L.w], dz, L.stride, dw, &db, needDx);
  params.setGrad(L.w, dw);
  params.setGrad(L.b, db);
  return dx;
}

// [N, H, W, C] -> [N, 2H, 2W, C], each pixel repeated 2x2.
Tensor upsample2x(StablehloEmitter &e, const Tensor &x) {
  const Shape &s = x.shape;
  Tensor rep = e.broadcast(x, {s[0], s[1], 2, s[2], 2, s[3]}, {0, 1, 3, 5});
  return e.reshape(rep, {s[0], 2 * s[1], 2 * s[2], s[3]});
}

Tensor upsample2xGrad(StablehloEmitter &e, const Tensor &dy) {
  const Shape &s = dy.shape;
  return e.reduce(e.reshape(dy, {s[0], s[1] / 2, 2, s[2] / 2, 2, s[3]}), {2, 4});
}

struct Level {
  ConvLayer conv1, conv2;
  ConvCache c1, c2;
};

}  // namespace

static GenResult buildUnet(const UnetConfig &c) {
  if (c.batch < 1 || c.height < 1 || c.width < 1 || c.channels < 1 || c.baseWidth < 1 || c.levels < 1)
    throw GenError("unet: sizes must be positive");
  if (c.levels > 16 || c.height % (int64_t(1) << c.levels) || c.width % (int64_t(1) << c.levels))
    throw GenError("unet: height and width must be divisible by 2^levels");
  const int64_t B = c.batch, Hh = c.height, Ww = c.width, C = c.channels;
  StablehloEmitter e(c.dtype);
  Ops ops{e};
  ParamSet params;
  std::vector<Level> enc(size_t(c.levels)), dec(size_t(c.levels));
  std::vector<ConvLayer> down(size_t(c.levels));
  std::vector<ConvCache> downCache(size_t(c.levels));
  auto widthAt = [&](int64_t level) { return c.baseWidth << level; };
  int64_t in = C;
  for (int64_t l = 0; l < c.levels; ++l) {
    std::string p = "['encoder'][" + std::to_string(l) + "]";
    int64_t w = widthAt(l);
    enc[l].conv1 = declareConv(params, p + "['conv1']", 3, in, w, 1, true);
    enc[l].conv2 = declareConv(params, p + "['conv2']", 3, w, w, 1, true);
    down[l] = declareConv(params, p + "['down']", 3, w, w, 2, false);
    in = w;
  }
  Level mid;
  mid.conv1 = declareConv(params, "['bottleneck']['conv1']", 3, in, widthAt(c.levels), 1, true);
  mid.conv2 = declareConv(params, "['bottleneck']['conv2']", 3, widthAt(c.levels), widthAt(c.levels), 1, true);
  in = widthAt(c.levels);
  // Decoder i works at encoder level levels - 1 - i, deepest first.
  for (int64_t i = 0; i < c.levels; ++i) {
    std::string p = "['decoder'][" + std::to_string(i) + "]";
    int64_t w = widthAt(c.levels - 1 - i);
    dec[i].conv1 = declareConv(params, p + "['conv1']", 3, in + w, w, 1, true);
    dec[i].conv2 = declareConv(params, p + "['conv2']", 3, w, w, 1, true);
    in = w;
  }
  ConvLayer out = declareConv(params, "['out']", 1, in, C, 1, false);
  ConvCache outCache;
  params.materialize(e);
  Tensor image = e.arg({B, Hh, Ww, C}, "batch['image']");
  Tensor target = e.arg({B, Hh, Ww, C}, "batch['target']");

  // Forward.
  std::vector<Tensor> skips;
  Tensor h = image;
  for (size_t l = 0; l < enc.size(); ++l) {
    h = convLayer(ops, params, enc[l].conv2, convLayer(ops, params, enc[l].conv1, h, enc[l].c1), enc[l].c2);
    skips.push_back(h);
    h = convLayer(ops, params, down[l], h, downCache[l]);
  }
  h = convLayer(ops, params, mid.conv2, convLayer(ops, params, mid.conv1, h, mid.c1), mid.c2);
  std::vector<int64_t> upChannels;
  for (size_t i = 0; i < dec.size(); ++i) {
    Tensor up = upsample2x(e, h);
    upChannels.push_back(up.shape[3]);
    Tensor cat = e.concatenate({up, skips[skips.size() - 1 - i]}, 3);
    h = convLayer(ops, params, dec[i].conv2, convLayer(ops, params, dec[i].conv1, cat, dec[i].c1), dec[i].c2);
  }
  Tensor y = convLayer(ops, params, out, h, outCache);
  Tensor diff = ops.sub(y, target);
  const double count = double(B * Hh * Ww * C);
  Tensor loss = ops.scale(e.reduce(ops.mul(diff, diff), {0, 1, 2, 3}), 1.0 / count);

  // Backward.
  Tensor dh = convLayerGrad(ops, params, out, outCache, ops.scale(diff, 2.0 / count));
  std::vector<Tensor> dskips(skips.size());
  for (size_t i = dec.size(); i-- > 0;) {
    dh = convLayerGrad(ops, params, dec[i].conv2, dec[i].c2, dh);
    Tensor dcat = convLayerGrad(ops, params, dec[i].conv1, dec[i].c1, dh);
    const Shape &s = dcat.shape;
    int64_t u = upChannels[i];
    dskips[skips.size() - 1 - i] = e.slice(dcat, {0, 0, 0, u}, {s[0], s[1], s[2], s[3]});
    dh = upsample2xGrad(e, e.slice(dcat, {0, 0, 0, 0}, {s[0], s[1], s[2], u}));
  }
  dh = convLayerGrad(ops, params, mid.conv2, mid.c2, dh);
  dh = convLayerGrad(ops, params, mid.conv1, mid.c1, dh);
  for (size_t l = enc.size(); l-- > 0;) {
    dh = ops.add(convLayerGrad(ops, params, down[l], downCache[l], dh), dskips[l]);
    dh = convLayerGrad(ops, params, enc[l].conv2, enc[l].c2, dh);
    dh = convLayerGrad(ops, params, enc[l].conv1, enc[l].c1, dh, /*needDx=*/l > 0);
  }
  params.emitAdamUpdate(ops);
  e.result(loss, "['loss']");
  return {e.module("jit_train_step"), e.numOps(), params.numElements()};
}

std::optional<GenResult> generateUnet(const UnetConfig &c, Diagnostics &diags) {
  return guarded(diags, [&] { return buildUnet(c); });
}

}  // namespace autopart::gen
