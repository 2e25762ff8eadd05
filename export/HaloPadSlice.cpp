#include "export/HaloPadSlice.h"

#include <algorithm>
#include <cstdlib>

#include "export/HaloWindowExchange.h"
#include "support/IntMath.h"
#include "rules/RuleFamilies.h"

namespace autopart {

namespace {

using rules::shapeOf;

int64_t shardCount(const TensorSharding *s, size_t dim, const Mesh &mesh) {
  return s && dim < s->dims.size() ? s->dims[dim].shardCount(mesh) : 1;
}

bool isStatic(const std::vector<int64_t> &shape) {
  return std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
}

// A splat zero constant: the value a collective permute leaves on devices it
// sends nothing to, so halo buffers filled that way read as padding.
bool isZeroConstant(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  if (def == kNone || !m.isa(def, "stablehlo.constant")) return false;
  AttrId a = m.attr(def, "value");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::DenseElements) return false;
  std::string body(m.attrs.get(a).body);
  if (body == "false") return true;
  if (body.empty() || body.find_first_of("[(\"") != std::string::npos) return false;
  char *end = nullptr;
  double value = std::strtod(body.c_str(), &end);
  return end && *end == '\0' && value == 0.0;
}

// Copies: the rewrite adds values to the sharding map, which may move the
// map's entries (and an inline mesh with them).
struct Setup {
  TensorSharding in;
  Mesh meshCopy;
  std::vector<int64_t> inShape, outShape;
  const Mesh *mesh() const { return &meshCopy; }
};

// The operand's sharding and mesh, or nullopt when the op is not sharded on
// a real mesh (then nothing is exchanged).
std::optional<Setup> setup(const Module &m, const ShardingMap &map, OpId op) {
  const TensorSharding *in = map.get(m.operand(op, 0));
  if (!in || in->isFullyReplicated()) return std::nullopt;
  const Mesh *mesh = map.mesh(*in);
  if (!mesh || mesh->isMaximal()) return std::nullopt;
  std::optional<Setup> s(Setup{*in, *mesh, shapeOf(m, m.operand(op, 0)), shapeOf(m, m.result(op))});
  if (s->inShape.size() != in->rank() || s->outShape.size() != in->rank()) return std::nullopt;
  return s;
}

TypeId paddedResultType(Module &m, const Setup &s, ValueId result) {
  std::vector<int64_t> shape = s.outShape;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t count = s.in.dims[d].shardCount(*s.mesh());
    shape[d] = ceilDiv(shape[d], count) * count;
  }
  return m.types.tensor(shape, m.types.elementType(m.type(result)));
}

void replaceOp(Module &m, OpId func, OpId op, ValueId with) {
  m.replaceAllUsesWith(m.result(op), with, func);
  m.eraseOp(op);
}

AttrId i64Array(Module &m, const std::vector<int64_t> &v) { return m.attrs.denseArray(m.types.scalar("i64"), v); }

}  // namespace

bool isLocalSliceDim(const Module &m, OpId op, size_t dim, const TensorSharding *s, const Mesh &mesh) {
  int64_t count = shardCount(s, dim, mesh);
  if (count <= 1) return true;
  std::vector<int64_t> starts = m.attrs.intList(m.attr(op, "start_indices"));
  std::vector<int64_t> strides = m.attrs.intList(m.attr(op, "strides"));
  if (dim >= starts.size() || starts[dim] != 0 || (dim < strides.size() && strides[dim] != 1)) return false;
  int64_t in = shapeOf(m, m.operand(op, 0))[dim], out = shapeOf(m, m.result(op))[dim];
  if (in < 0 || out < 0) return false;
  return ceilDiv(in, count) == ceilDiv(out, count);
}

bool isLocalPadDim(const Module &m, OpId op, size_t dim, const TensorSharding *s, const Mesh &mesh) {
  int64_t count = shardCount(s, dim, mesh);
  if (count <= 1) return true;
  std::vector<int64_t> interior = m.attrs.intList(m.attr(op, "interior_padding"));
  std::vector<int64_t> low = m.attrs.intList(m.attr(op, "edge_padding_low"));
  if (dim >= low.size() || (dim < interior.size() && interior[dim] != 0)) return false;
  int64_t in = shapeOf(m, m.operand(op, 0))[dim], out = shapeOf(m, m.result(op))[dim];
  if (in < 0 || out < 0) return false;
  int64_t inTile = ceilDiv(in, count), outTile = ceilDiv(out, count);
  for (int64_t t = 0; t < count; ++t) {
    int64_t first = std::max<int64_t>(0, t * outTile - low[dim]);
    int64_t last = std::min<int64_t>(in - 1, t * outTile - low[dim] + outTile - 1);
    if (first <= last && (first / inTile != t || last / inTile != t)) return false;
  }
  return true;
}

HaloOutcome resolvePadByHalo(Module &m, ShardingMap &map, ChannelIds &channels, OpId func, OpId op) {
  std::optional<Setup> s = setup(m, map, op);
  if (!s) return HaloOutcome::Unchanged;
  if (!isStatic(s->inShape) || !isStatic(s->outShape)) return HaloOutcome::Unsupported;
  std::vector<int64_t> low = m.attrs.intList(m.attr(op, "edge_padding_low"));
  std::vector<int64_t> high = m.attrs.intList(m.attr(op, "edge_padding_high"));
  std::vector<int64_t> interior = m.attrs.intList(m.attr(op, "interior_padding"));
  size_t rank = s->inShape.size();
  if (low.size() != rank || high.size() != rank || interior.size() != rank) return HaloOutcome::Unsupported;

  DataExchange plan = planDataExchange(s->inShape, s->in, *s->mesh(), [&](int64_t dim, int64_t sIn, int64_t count) {
    size_t d = size_t(dim);
    int64_t sOut = ceilDiv(s->outShape[d], count);
    DimExchange ex = planDimExchange(count, sIn, sOut, sOut, low[d], interior[d] + 1, s->inShape[d]);
    if (!isLocalPadDim(m, op, d, &s->in, *s->mesh())) ex.needsComm = true;
    return ex;
  });
  if (plan.manual.empty() || !plan.needsComm()) return HaloOutcome::Unchanged;
  // The buffer's edges come from collective permutes, which leave zeros where
  // no neighbour sends; that only reads as padding when padding is zero.
  ValueId padding = m.operand(op, 1);
  if (!plan.canUseHalo() || !isZeroConstant(m, padding)) return HaloOutcome::Unsupported;

  OpPlacer at{m, map, op, m.ops[op].parent, op};
  ValueId divisible = padHighToShape(at, m.operand(op, 0), plan.divisibleShape, s->in, padding);
  std::vector<int64_t> dilation(rank);
  for (size_t d = 0; d < rank; ++d) dilation[d] = interior[d] + 1;
  TensorSharding local = withoutAxes(s->in, plan.manual);
  const Setup &setupRef = *s;
  // Dimensions that stay whole on each device are padded locally.
  auto post = [&](OpPlacer &inside, ValueId v, ValueId localPadding, const std::vector<int64_t> &resultShape) {
    std::vector<int64_t> l(rank, 0), h(rank, 0), i(rank, 0);
    bool any = false;
    for (size_t d = 0; d < rank; ++d) {
      if (setupRef.in.dims[d].shardCount(*setupRef.mesh()) > 1) continue;
      l[d] = low[d];
      h[d] = high[d];
      i[d] = interior[d];
      any |= l[d] != 0 || h[d] != 0 || i[d] != 0;
    }
    if (!any) return v;
    return inside.value("stablehlo.pad", {v, localPadding},
                        m.types.tensor(resultShape, m.types.elementType(m.type(v))),
                        {{m.names.get("edge_padding_high"), i64Array(m, h)},
                         {m.names.get("edge_padding_low"), i64Array(m, l)},
                         {m.names.get("interior_padding"), i64Array(m, i)}},
                        &local);
  };
  ValueId result = haloWindowExchange(at, channels, divisible, padding, paddedResultType(m, *s, m.result(op)), s->in,
                                      s->in, *s->mesh(), plan, low, dilation, post);
  result = sliceHighToShape(at, result, s->outShape, s->in);
  replaceOp(m, func, op, result);
  return HaloOutcome::Rewritten;
}

HaloOutcome resolveSliceByHalo(Module &m, ShardingMap &map, ChannelIds &channels, OpId func, OpId op) {
  std::optional<Setup> s = setup(m, map, op);
  if (!s) return HaloOutcome::Unchanged;
  if (!isStatic(s->inShape) || !isStatic(s->outShape)) return HaloOutcome::Unsupported;
  std::vector<int64_t> starts = m.attrs.intList(m.attr(op, "start_indices"));
  std::vector<int64_t> limits = m.attrs.intList(m.attr(op, "limit_indices"));
  std::vector<int64_t> strides = m.attrs.intList(m.attr(op, "strides"));
  size_t rank = s->inShape.size();
  if (starts.size() != rank || limits.size() != rank) return HaloOutcome::Unsupported;
  if (strides.size() != rank) strides.assign(rank, 1);

  DataExchange plan = planDataExchange(s->inShape, s->in, *s->mesh(), [&](int64_t dim, int64_t sIn, int64_t count) {
    size_t d = size_t(dim);
    int64_t sOut = ceilDiv(s->outShape[d], count);
    DimExchange ex = planDimExchange(count, sIn, sOut, sOut, -starts[d], 1, s->inShape[d]);
    if (!isLocalSliceDim(m, op, d, &s->in, *s->mesh())) ex.needsComm = true;
    return ex;
  });
  if (plan.manual.empty() || !plan.needsComm()) return HaloOutcome::Unchanged;
  if (!plan.canUseHalo()) return HaloOutcome::Unsupported;
  // The window arithmetic assumes consecutive elements: a strided slice of a
  // sharded dimension is replicated instead.
  for (const DimExchange &ex : plan.dims)
    if (strides[size_t(ex.dim)] != 1) return HaloOutcome::Unsupported;

  OpPlacer at{m, map, op, m.ops[op].parent, op};
  ValueId divisible = padHighToShape(at, m.operand(op, 0), plan.divisibleShape, s->in, kNone);
  ValueId padding = zeroScalar(at, m.types.elementType(m.type(m.operand(op, 0))));
  std::vector<int64_t> padLow(rank);
  for (size_t d = 0; d < rank; ++d) padLow[d] = -starts[d];
  TensorSharding local = withoutAxes(s->in, plan.manual);
  const Setup &setupRef = *s;
  // Dimensions that stay whole on each device are sliced locally.
  auto post = [&](OpPlacer &inside, ValueId v, ValueId, const std::vector<int64_t> &) {
    std::vector<int64_t> shape = m.types.shape(m.type(v));
    std::vector<int64_t> b(rank, 0), e = shape, st(rank, 1), out = shape;
    bool any = false;
    for (size_t d = 0; d < rank; ++d) {
      if (setupRef.in.dims[d].shardCount(*setupRef.mesh()) > 1) continue;
      if (starts[d] == 0 && limits[d] == shape[d] && strides[d] == 1) continue;
      b[d] = starts[d];
      e[d] = limits[d];
      st[d] = strides[d];
      out[d] = ceilDiv(limits[d] - starts[d], strides[d]);
      any = true;
    }
    if (!any) return v;
    return inside.value("stablehlo.slice", {v}, m.types.tensor(out, m.types.elementType(m.type(v))),
                        {{m.names.get("start_indices"), i64Array(m, b)},
                         {m.names.get("limit_indices"), i64Array(m, e)},
                         {m.names.get("strides"), i64Array(m, st)}},
                        &local);
  };
  ValueId result = haloWindowExchange(at, channels, divisible, padding, paddedResultType(m, *s, m.result(op)), s->in,
                                      s->in, *s->mesh(), plan, padLow, std::vector<int64_t>(rank, 1), post);
  result = sliceHighToShape(at, result, s->outShape, s->in);
  replaceOp(m, func, op, result);
  return HaloOutcome::Rewritten;
}

}  // namespace autopart
