// MLP classifier training step: `layers` hidden ReLU layers of `width`,
// softmax cross-entropy over `classes`, Adam. The same computation as
// shared/models/jax_mnist_mlp_train_step.mlir (which uses SGD) at any size.
#include "gen/Layers.h"
#include "gen/Models.h"

namespace autopart::gen {

static GenResult buildMlp(const MlpConfig &c) {
  if (c.layers < 0 || c.batch < 1 || c.input < 1 || c.width < 1 || c.classes < 1)
    throw GenError("mlp: sizes must be positive");
  StablehloEmitter e(c.dtype);
  Ops ops{e};
  ParamSet params;
  std::vector<size_t> w, b;
  int64_t in = c.input;
  for (int64_t l = 0; l <= c.layers; ++l) {
    int64_t out = l == c.layers ? c.classes : c.width;
    std::string p = "['layers'][" + std::to_string(l) + "]";
    w.push_back(params.declare(p + "['w']", {in, out}));
    b.push_back(params.declare(p + "['b']", {out}));
    in = out;
  }
  params.materialize(e);
  Tensor x = e.arg({c.batch, c.input}, "batch['x']");
  Tensor y = e.arg({c.batch}, "batch['label']", "i32");

  std::vector<Tensor> inputs, pre;
  Tensor h = x;
  for (size_t l = 0; l < w.size(); ++l) {
    inputs.push_back(h);
    Tensor z = linear(ops, h, params[w[l]], &params[b[l]]);
    pre.push_back(z);
    h = l + 1 == w.size() ? z : relu(ops, z);
  }
  Tensor dh;
  Tensor loss = softmaxCrossEntropy(ops, h, y, dh);
  for (size_t l = w.size(); l-- > 0;) {
    Tensor dz = l + 1 == w.size() ? dh : reluGrad(ops, pre[l], dh);
    Tensor dw, db;
    dh = linearGrad(ops, inputs[l], params[w[l]], dz, dw, &db, /*needDx=*/l > 0);
    params.setGrad(w[l], dw);
    params.setGrad(b[l], db);
  }
  params.emitAdamUpdate(ops);
  e.result(loss, "['loss']");
  return {e.module("jit_train_step"), e.numOps(), params.numElements()};
}

std::optional<GenResult> generateMlp(const MlpConfig &c, Diagnostics &diags) {
  return guarded(diags, [&] { return buildMlp(c); });
}

}  // namespace autopart::gen
