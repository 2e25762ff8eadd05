#include "export/HaloReshape.h"

#include <algorithm>

#include "export/HaloWindowExchange.h"
#include "export/ReshapeGroups.h"
#include "ir/AxisList.h"
#include "support/IntMath.h"

namespace autopart {

namespace {

// The exchange for the single input dimension `dim` of split group `g`:
// which input shard holds the start and the end of each output tile.
DimExchange splitExchange(const ReshapeGroup &g, int64_t dim, int64_t count, const std::vector<int64_t> &inShape,
                          const std::vector<int64_t> &paddedIn, const std::vector<int64_t> &outShape,
                          const TensorSharding &in, const TensorSharding &out, const Mesh &mesh,
                          const std::set<std::string> &manual) {
  DimExchange ex;
  ex.dim = dim;
  ex.sOut = ex.footprint = paddedIn[size_t(dim)] / count;
  for (int64_t d = g.outBegin; d < g.outEnd; ++d)
    for (const AxisRef &a : out.dims[size_t(d)].axes) ex.axes.push_back(a);

  // Row-major strides of the group's output dimensions.
  size_t n = size_t(g.outEnd - g.outBegin);
  std::vector<int64_t> strides(n, 1);
  for (size_t k = n - 1; k-- > 0;) strides[k] = strides[k + 1] * outShape[size_t(g.outBegin) + k + 1];

  int64_t size = inShape[size_t(dim)], tile = ceilDiv(size, count);
  auto holder = [&](int64_t element) -> int64_t {
    if (element < 0 || element >= size) return -1;
    return element / tile;
  };
  std::vector<std::pair<int64_t, int64_t>> sources;  // (shard, offset in it)
  for (int64_t t = 0; t < count; ++t) {
    int64_t start = 0, rest = t;
    for (size_t k = n; k-- > 0;) {
      size_t d = size_t(g.outBegin) + k;
      int64_t shards = out.dims[d].shardCount(mesh);
      start += (rest % shards) * ceilDiv(outShape[d], shards) * strides[k];
      rest /= shards;
    }
    int64_t first = holder(start), last = holder(start + ex.sOut - 1);
    if ((first != -1 && first != t) || (last != -1 && last != t)) ex.needsComm = true;
    if (first != -1 && first < t) ex.leftHops = std::max(ex.leftHops, t - first);
    if (last != -1 && last > t) ex.rightHops = std::max(ex.rightHops, last - t);
    sources.push_back({first, first == -1 ? 0 : start - first * tile});
  }
  ex.canUseHalo = ex.leftHops <= 1 && ex.rightHops <= 1;
  int64_t sIn = paddedIn[size_t(dim)] / manualShardCount(in.dims[size_t(dim)], mesh, manual);
  for (int64_t t = 0; t < count; ++t) {
    auto [source, offset] = sources[size_t(t)];
    int64_t hop = ex.leftHops + (source == -1 ? t : source) - t;
    ex.offsets.push_back(ex.footprint + hop * sIn + offset);
  }
  return ex;
}

}  // namespace

HaloOutcome resolveReshapeByHalo(Module &m, ShardingMap &map, ChannelIds &channels, OpId func, OpId op,
                                 const TensorSharding &in, const TensorSharding &out, const Mesh &mesh) {
  ValueId input = m.operand(op, 0), result = m.result(op);
  std::vector<int64_t> inShape = m.types.shape(m.type(input)), outShape = m.types.shape(m.type(result));
  std::vector<int64_t> paddedIn = inShape, paddedOut = outShape;
  std::set<std::string> manual;
  std::vector<ReshapeGroup> active;
  for (const ReshapeGroup &g : reshapeGroups(inShape, outShape)) {
    bool indivisible = false;
    auto pad = [&](const std::vector<int64_t> &shape, std::vector<int64_t> &padded, const TensorSharding &s,
                   int64_t begin, int64_t end) {
      for (int64_t d = begin; d < end; ++d) {
        int64_t count = s.dims[size_t(d)].shardCount(mesh);
        if (count <= 1 || shape[size_t(d)] % count == 0) continue;
        indivisible = true;
        padded[size_t(d)] = ceilDiv(shape[size_t(d)], count) * count;
      }
    };
    pad(inShape, paddedIn, in, g.inBegin, g.inEnd);
    pad(outShape, paddedOut, out, g.outBegin, g.outEnd);
    if (!indivisible) continue;
    for (int64_t d = g.inBegin; d < g.inEnd; ++d)
      for (const AxisRef &a : in.dims[size_t(d)].axes) manual.insert(a.name);
    for (int64_t d = g.outBegin; d < g.outEnd; ++d)
      for (const AxisRef &a : out.dims[size_t(d)].axes) manual.insert(a.name);
    if (g.isPassThrough()) continue;

    // Only a split of one dimension without size-1 dimensions, over the same
    // axes in the same order, with whole-ratio sizes and equal padded volumes.
    if (g.inEnd - g.inBegin != 1 || g.outEnd - g.outBegin < 2) return HaloOutcome::Unsupported;
    if (g.inNonTrivial != 1 || g.outNonTrivial != g.outEnd - g.outBegin) return HaloOutcome::Unsupported;
    int64_t inSize = inShape[size_t(g.inBegin)], outSize = outShape[size_t(g.outBegin)];
    if (inSize % outSize != 0 && outSize % inSize != 0) return HaloOutcome::Unsupported;
    int64_t outVolume = 1;
    AxisList outAxes;
    for (int64_t d = g.outBegin; d < g.outEnd; ++d) {
      outVolume *= paddedOut[size_t(d)];
      for (const AxisRef &a : out.dims[size_t(d)].axes) outAxes.push_back(a);
    }
    if (outVolume != paddedIn[size_t(g.inBegin)]) return HaloOutcome::Unsupported;
    if (mergeAdjacent(in.dims[size_t(g.inBegin)].axes, mesh) != mergeAdjacent(outAxes, mesh))
      return HaloOutcome::Unsupported;
    active.push_back(g);
  }
  if (manual.empty() || active.empty()) return HaloOutcome::Unsupported;

  DataExchange plan;
  plan.divisibleShape = paddedIn;
  plan.manual = manual;
  auto next = active.begin();
  for (size_t d = 0; d < inShape.size(); ++d) {
    int64_t count = in.dims[d].shardCount(mesh);
    if (count <= 1) continue;
    if (next != active.end() && next->inBegin == int64_t(d)) {
      plan.dims.push_back(splitExchange(*next++, int64_t(d), count, inShape, paddedIn, outShape, in, out, mesh, manual));
      continue;
    }
    DimExchange still;
    still.dim = int64_t(d);
    still.sOut = still.footprint = paddedIn[d] / count;
    plan.dims.push_back(still);
  }
  if (!plan.canUseHalo()) return HaloOutcome::Unsupported;

  OpPlacer at{m, map, op, m.ops[op].parent, op};
  TypeId element = m.types.elementType(m.type(result));
  ValueId padding = zeroScalar(at, element);
  ValueId padded = padHighToShape(at, input, paddedIn, in, kNone);
  std::vector<int64_t> paddedResult = outShape;
  for (size_t d = 0; d < outShape.size(); ++d) {
    int64_t count = out.dims[d].shardCount(mesh);
    paddedResult[d] = ceilDiv(outShape[d], count) * count;
  }
  TensorSharding localOut = withoutAxes(out, manual);
  auto post = [&](OpPlacer &inside, ValueId v, ValueId, const std::vector<int64_t> &) {
    std::vector<int64_t> local = paddedOut;
    for (size_t d = 0; d < local.size(); ++d) local[d] /= manualShardCount(out.dims[d], mesh, manual);
    return inside.value("stablehlo.reshape", {v}, m.types.tensor(local, element), {}, &localOut);
  };
  ValueId exchanged = haloWindowExchange(at, channels, padded, padding, m.types.tensor(paddedResult, element), in,
                                         out, mesh, plan, std::vector<int64_t>(inShape.size(), 0),
                                         std::vector<int64_t>(inShape.size(), 1), post);
  exchanged = sliceHighToShape(at, exchanged, outShape, out);
  m.replaceAllUsesWith(result, exchanged, func);
  m.eraseOp(op);
  return HaloOutcome::Rewritten;
}

}  // namespace autopart
