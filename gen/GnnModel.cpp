// Graph network training step. Per layer, with node features h [N, F]:
//
//   msg = gather(h, src) . W        [E, F] . [F, H] -> [E, H]   (per edge)
//   agg = scatter_add(dst, msg)     [N, H]                      (per node)
//   h'  = relu(agg + h . Wself)     [N, H]
//
// and the transposes in the backward pass: the gradient of a gather is a
// scatter-add into the source nodes, that of the scatter a gather at the
// destinations. The edge lists are data (`batch['src']`, `batch['dst']`).
#include "gen/Layers.h"
#include "gen/Models.h"

namespace autopart::gen {

static GenResult buildGnn(const GnnConfig &c) {
  if (c.nodes < 1 || c.edges < 1 || c.features < 1 || c.hidden < 1 || c.layers < 1 || c.classes < 1)
    throw GenError("gnn: sizes must be positive");
  StablehloEmitter e(c.dtype);
  Ops ops{e};
  ParamSet params;
  struct LayerParams {
    size_t w, wself;
  };
  std::vector<LayerParams> lp;
  int64_t in = c.features;
  for (int64_t l = 0; l < c.layers; ++l) {
    std::string p = "['layers'][" + std::to_string(l) + "]";
    lp.push_back({params.declare(p + "['w_msg']", {in, c.hidden}), params.declare(p + "['w_self']", {in, c.hidden})});
    in = c.hidden;
  }
  size_t wout = params.declare("['readout']['w']", {c.hidden, c.classes});
  size_t bout = params.declare("['readout']['b']", {c.classes});
  params.materialize(e);
  Tensor x = e.arg({c.nodes, c.features}, "batch['node_features']");
  Tensor src = e.arg({c.edges, 1}, "batch['src']", "i32");
  Tensor dst = e.arg({c.edges, 1}, "batch['dst']", "i32");
  Tensor labels = e.arg({c.nodes}, "batch['labels']", "i32");

  struct Cache {
    Tensor h, gathered, pre;
  };
  std::vector<Cache> cache;
  Tensor h = x;
  for (const LayerParams &P : lp) {
    Cache C;
    C.h = h;
    C.gathered = e.gatherRows(h, src);
    Tensor msg = linear(ops, C.gathered, params[P.w], nullptr);
    Tensor agg = e.scatterAddRows(c.nodes, dst, msg);
    C.pre = ops.add(agg, linear(ops, h, params[P.wself], nullptr));
    h = relu(ops, C.pre);
    cache.push_back(C);
  }
  Tensor logits = linear(ops, h, params[wout], &params[bout]);
  Tensor dlogits;
  Tensor loss = softmaxCrossEntropy(ops, logits, labels, dlogits);

  Tensor dwout, dbout;
  Tensor dh = linearGrad(ops, h, params[wout], dlogits, dwout, &dbout);
  params.setGrad(wout, dwout);
  params.setGrad(bout, dbout);
  for (size_t l = lp.size(); l-- > 0;) {
    const Cache &C = cache[l];
    Tensor dpre = reluGrad(ops, C.pre, dh);
    Tensor dwself, dw;
    bool needDx = l > 0;
    Tensor dhSelf = linearGrad(ops, C.h, params[lp[l].wself], dpre, dwself, nullptr, needDx);
    Tensor dmsg = e.gatherRows(dpre, dst);  // the scatter's transpose
    Tensor dgathered = linearGrad(ops, C.gathered, params[lp[l].w], dmsg, dw, nullptr, needDx);
    params.setGrad(lp[l].wself, dwself);
    params.setGrad(lp[l].w, dw);
    if (needDx) dh = ops.add(dhSelf, e.scatterAddRows(c.nodes, src, dgathered));  // the gather's transpose
  }
  params.emitAdamUpdate(ops);
  e.result(loss, "['loss']");
  return {e.module("jit_train_step"), e.numOps(), params.numElements()};
}

std::optional<GenResult> generateGnn(const GnnConfig &c, Diagnostics &diags) {
  return guarded(diags, [&] { return buildGnn(c); });
}

}  // namespace autopart::gen
