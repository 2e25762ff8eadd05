// Dispatch of the registry, and the rules of pointwise and shape-preserving
// ops. Families with more structure live beside it: reshape
// (rules/ReshapeRule.cpp), contractions (rules/ContractionRules.cpp),
// gather/scatter (rules/GatherScatterRules.cpp).
#include "rules/OpShardingRuleRegistry.h"

#include <mutex>
#include <set>
#include <string>
#include <unordered_set>

#include "rules/RuleFamilies.h"

namespace autopart {

namespace rules {

std::vector<int64_t> shapeOf(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  return m.types.isTensor(t) ? m.types.shape(t) : std::vector<int64_t>{};
}

std::vector<int64_t> intsAttr(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
}

int64_t intAttr(const Module &m, OpId op, std::string_view name, int64_t dflt) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return dflt;
  const AttrStorage &s = m.attrs.get(a);
  return s.kind == AttrKind::Integer || s.kind == AttrKind::Bool ? s.intValue : dflt;
}

OpShardingRule pointwise(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  b.addPointwise(shapeOf(m, m.result(op, 0)));
  return b.build();
}

}  // namespace rules

using namespace rules;

namespace {

const std::unordered_set<std::string_view> &pointwiseOps() {
  static const std::unordered_set<std::string_view> s = {
      "abs", "add", "and", "atan2", "cbrt", "ceil", "count_leading_zeros", "compare", "complex",
      "convert", "cosine", "divide", "exponential", "exponential_minus_one", "floor", "imag",
      "is_finite", "log_plus_one", "log", "logistic", "maximum", "minimum", "multiply", "negate",
      "not", "or", "popcnt", "power", "real", "reduce_precision", "remainder",
      "round_nearest_even", "round_nearest_afz", "rsqrt", "shift_left",
      "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt", "subtract", "tan",
      "tanh", "xor", "map", "collective_permute", "cross-replica-sum"};
  return s;
}

// Ops that have no rule by design: constants, ops propagation handles with
// data-flow edges, and ops with nothing to propagate.
const std::unordered_set<std::string_view> &ruleLessOps() {
  static const std::unordered_set<std::string_view> s = {
      "stablehlo.constant", "stablehlo.iota", "stablehlo.while", "stablehlo.case",
      "stablehlo.if", "stablehlo.optimization_barrier", "stablehlo.get_tuple_element",
      "stablehlo.tuple", "stablehlo.partition_id", "stablehlo.replica_id",
      "stablehlo.create_token", "stablehlo.after_all", "stablehlo.outfeed", "stablehlo.infeed",
      "stablehlo.send", "stablehlo.recv", "stablehlo.return", "func.return", "func.call",
      "func.func", "builtin.module", "sdy.mesh", "sdy.return", "sdy.manual_computation",
      "sdy.named_computation", "sdy.propagation_barrier", "sdy.sharding_group", "sdy.reshard",
      "sdy.data_flow_edge", "sdy.constant", "arith.constant", "stablehlo.dynamic_iota",
      "stablehlo.get_dimension_size", "stablehlo.async_start", "stablehlo.async_done"};
  return s;
}

void warnOnce(Diagnostics *diags, const Module &m, OpId op, const std::string &key,
              const std::string &message) {
  if (!diags) return;
  static std::mutex mu;
  static std::set<std::pair<const Module *, std::string>> seen;
  std::lock_guard<std::mutex> lock(mu);
  if (!seen.insert({&m, key}).second) return;
  diags->warning(m, op, message);
}

std::optional<OpShardingRule> broadcastInDim(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  std::vector<int64_t> dims = intsAttr(m, op, "broadcast_dimensions");
  std::vector<int64_t> outToIn(out.size(), kNullDim);
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] >= 0 && size_t(dims[i]) < out.size()) outToIn[size_t(dims[i])] = int64_t(i);
  for (size_t o = 0; o < out.size(); ++o) {
    int64_t inDim = outToIn[o];
    if (inDim != kNullDim && in[size_t(inDim)] == 1 && out[o] != 1) {
      // Expanded in place: the operand dimension keeps a factor of its own.
      b.addFactor({inDim}, {kNullDim}, 1);
      inDim = kNullDim;
    }
    b.addFactor({inDim}, {int64_t(o)}, out[o]);
  }
  return b.build();
}

std::optional<OpShardingRule> transpose(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0));
  std::vector<int64_t> perm = intsAttr(m, op, "permutation");
  for (size_t o = 0; o < perm.size(); ++o) b.addFactor({perm[o]}, {int64_t(o)}, in[size_t(perm[o])]);
  return b.build();
}

std::optional<OpShardingRule> reduce(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  size_t numInputs = m.numOperands(op) / 2;
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0));
  std::vector<int64_t> dims = intsAttr(m, op, "dimensions");
  int64_t outDim = 0;
  for (size_t d = 0; d < in.size(); ++d) {
    std::vector<int64_t> operandDims(m.numOperands(op), kNullDim);
    std::fill_n(operandDims.begin(), numInputs, int64_t(d));
    bool reduced = std::find(dims.begin(), dims.end(), int64_t(d)) != dims.end();
    std::vector<int64_t> resultDims(numInputs, reduced ? kNullDim : outDim++);
    b.addFactor(operandDims, resultDims, in[d], reduced ? FactorKind::Reduction : FactorKind::PassThrough);
  }
  return b.build();
}

// The operand a concatenate input was sliced from (itself if not a slice).
ValueId beforeSlice(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  return def != kNone && m.isa(def, "stablehlo.slice") ? m.operand(def, 0) : v;
}

bool isSliceResult(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  return def != kNone && m.isa(def, "stablehlo.slice");
}

// Sharding the concatenated dimension keeps the result sharded only when the
// pieces can be moved into place: concat(slice(a), slice(b)) or pieces of
// one tensor, concat(slice(x), x, slice(x)), are shifts (permutation); any
// other mix needs the dimension replicated.
FactorKind concatDimKind(const Module &m, OpId op) {
  std::span<const ValueId> ins = m.operands(op);
  bool allSlices = true, anySlice = false, sameSource = true;
  ValueId source = ins.empty() ? kNone : beforeSlice(m, ins[0]);
  for (ValueId v : ins) {
    bool slice = isSliceResult(m, v);
    allSlices = allSlices && slice;
    anySlice = anySlice || slice;
    sameSource = sameSource && beforeSlice(m, v) == source;
  }
  if (allSlices || (sameSource && anySlice)) return FactorKind::Permutation;
  return FactorKind::NeedReplication;
}

std::optional<OpShardingRule> concatenate(const Module &m, OpId op, const RuleOptions &o) {
  int64_t dim = intAttr(m, op, "dimension", 0);
  FactorKind dimKind = concatDimKind(m, op);
  RuleBuilder b(m, op);
  b.addPointwiseIf(
      shapeOf(m, m.result(op)), [&](int64_t d) { return !o.conservativePropagation || d != dim; },
      [&](int64_t d) { return d == dim ? dimKind : FactorKind::PassThrough; });
  return b.build();
}

// slice and pad: a dimension whose size changes can stay sharded by moving
// data (permutation); conservative propagation blocks it.
std::optional<OpShardingRule> sliceLike(const Module &m, OpId op, const RuleOptions &o,
                                        ValueId in, ValueId out) {
  RuleBuilder b(m, op);
  b.addPointwiseWithKindForMismatch(shapeOf(m, in), shapeOf(m, out), FactorKind::Permutation,
                                    o.conservativePropagation);
  return b.build();
}

// All integers of a `dense<...>` attribute, in order (one value for a splat).
std::vector<int64_t> denseInts(const Module &m, AttrId a) {
  std::vector<int64_t> out;
  if (a == kNoAttr) return out;
  const AttrStorage &s = m.attrs.get(a);
  if (s.kind != AttrKind::DenseElements) return m.attrs.intList(a);
  std::string_view body = s.body;
  for (size_t i = 0; i < body.size();) {
    if (body[i] == '-' || (body[i] >= '0' && body[i] <= '9')) {
      size_t j = i + 1;
      while (j < body.size() && body[j] >= '0' && body[j] <= '9') ++j;
      out.push_back(std::stoll(std::string(body.substr(i, j - i))));
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

// reduce_window: factors follow the result (the number of windows along each
// dimension). A dimension keeps its sharding without communication only if
// each window is one element of the input at the same place; any window,
// stride, dilation or padding there needs a halo exchange (permutation).
std::optional<OpShardingRule> reduceWindow(const Module &m, OpId op, const RuleOptions &o) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  size_t rank = out.size();
  auto perDim = [&](std::string_view name, int64_t dflt) {
    std::vector<int64_t> v = intsAttr(m, op, name);
    if (v.size() != rank) v.assign(rank, dflt);
    return v;
  };
  std::vector<int64_t> window = perDim("window_dimensions", 1), strides = perDim("window_strides", 1),
                       baseDil = perDim("base_dilations", 1), winDil = perDim("window_dilations", 1);
  std::vector<int64_t> padding = denseInts(m, m.attr(op, "padding"));
  if (padding.size() == 1) padding.assign(2 * rank, padding[0]);
  if (padding.size() != 2 * rank) padding.assign(2 * rank, 0);
  RuleBuilder b(m, op);
  for (size_t d = 0; d < rank; ++d) {
    bool moves = d >= in.size() || in[d] != out[d] || window[d] != 1 || strides[d] != 1 ||
                 baseDil[d] != 1 || winDil[d] != 1 || padding[2 * d] != 0 ||
                 padding[2 * d + 1] != 0;
    b.addFactor(int64_t(d), out[d], moves ? FactorKind::Permutation : FactorKind::PassThrough,
                moves && o.conservativePropagation);
  }
  return b.build();
}

// select_and_scatter: where the source (one value per window) is smaller than
// the operand, the source dimension needs replication and the operand/result
// one a halo exchange; conservative propagation blocks both.
std::optional<OpShardingRule> selectAndScatter(const Module &m, OpId op, const RuleOptions &o) {
  std::vector<int64_t> operand = shapeOf(m, m.operand(op, 0)), source = shapeOf(m, m.operand(op, 1));
  RuleBuilder b(m, op);
  bool block = o.conservativePropagation;
  for (size_t d = 0; d < operand.size() && d < source.size(); ++d) {
    if (operand[d] == source[d]) {
      b.addFactor({int64_t(d), int64_t(d), kNullDim}, {int64_t(d)}, operand[d]);
      continue;
    }
    b.addFactor({kNullDim, int64_t(d), kNullDim}, {kNullDim}, source[d],
                FactorKind::NeedReplication, block);
    b.addFactor({int64_t(d), kNullDim, kNullDim}, {int64_t(d)}, operand[d],
                FactorKind::Permutation, block);
  }
  return b.build();
}

bool isConstant(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  return def != kNone && (m.isa(def, "stablehlo.constant") || m.isa(def, "sdy.constant") ||
                          m.isa(def, "arith.constant"));
}

// dynamic_update_slice: on a dimension the update only partly covers, the
// operand and result stay sharded alike (each device updates its own shard
// at its local offset) while the update is replicated; with constant start
// indices the update's place is known, so it need not be.
std::optional<OpShardingRule> dynamicUpdateSlice(const Module &m, OpId op) {
  std::vector<int64_t> operand = shapeOf(m, m.operand(op, 0)), update = shapeOf(m, m.operand(op, 1));
  bool constantIndices = true;
  for (uint32_t i = 2; i < m.numOperands(op); ++i)
    constantIndices = constantIndices && isConstant(m, m.operand(op, i));
  RuleBuilder b(m, op);
  b.addPointwiseIfDimSizesMatch(operand, update, [&](int64_t d, RuleBuilder &rb) {
    std::vector<int64_t> operandDims(m.numOperands(op), kNullDim), updateDims(m.numOperands(op), kNullDim);
    operandDims[0] = d;
    updateDims[1] = d;
    rb.addFactor(operandDims, {d}, operand[size_t(d)]);
    rb.addFactor(updateDims, {kNullDim}, update[size_t(d)],
                 constantIndices ? FactorKind::PassThrough : FactorKind::NeedReplication);
  });
  return b.build();
}

// The sorted dimension needs every element: it must stay replicated. It is
// blocked for propagation only when there is nothing else to shard (all other
// dimensions have size 1); otherwise propagation may still carry a sharding
// through it and let the other dimensions absorb it.
std::optional<OpShardingRule> sort(const Module &m, OpId op) {
  std::vector<int64_t> shape = shapeOf(m, m.operand(op, 0));
  int64_t dim = intAttr(m, op, "dimension", -1);
  if (dim < 0) dim += int64_t(shape.size());
  bool block = true;
  for (size_t d = 0; d < shape.size(); ++d) block = block && (int64_t(d) == dim || shape[d] == 1);
  RuleBuilder b(m, op);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (int64_t(d) != dim) {
      b.addFactor(int64_t(d), shape[d]);
      continue;
    }
    b.addFactor(int64_t(d), shape[d], FactorKind::NeedReplication, block);
  }
  return b.build();
}

// Reversing a sharded dimension moves data between devices.
std::optional<OpShardingRule> reverse(const Module &m, OpId op) {
  std::vector<int64_t> shape = shapeOf(m, m.result(op));
  std::vector<int64_t> dims = intsAttr(m, op, "dimensions");
  RuleBuilder b(m, op);
  b.addPointwise(shape, [&](int64_t d) {
    return std::find(dims.begin(), dims.end(), d) != dims.end() ? FactorKind::Permutation
                                                                 : FactorKind::PassThrough;
  });
  return b.build();
}

// A dynamically sliced dimension cannot be sharded (the offset is only known
// at run time), nor propagated through.
std::optional<OpShardingRule> dynamicSlice(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  RuleBuilder b(m, op);
  for (size_t d = 0; d < in.size() && d < out.size(); ++d) {
    if (in[d] == out[d]) {
      b.addFactor(int64_t(d), in[d]);
      continue;
    }
    b.addFactor(int64_t(d), in[d], FactorKind::NeedReplication).blockLast();
  }
  return b.build();
}

// The fft dimensions (the trailing `fft_length` ones) need replication; a
// last dimension whose size the transform changes is not propagated through.
std::optional<OpShardingRule> fft(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  size_t numFft = intsAttr(m, op, "fft_length").size();
  RuleBuilder b(m, op);
  for (size_t d = 0; d < in.size(); ++d) {
    bool isFft = d + numFft >= in.size();
    b.addFactor(int64_t(d), in[d], isFft ? FactorKind::NeedReplication : FactorKind::PassThrough);
    if (d + 1 == in.size() && d < out.size() && in[d] != out[d]) b.blockLast();
  }
  return b.build();
}

std::optional<OpShardingRule> bitcastConvert(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  RuleBuilder b(m, op);
  b.addPointwise(in.size() < out.size() ? in : out);
  if (in.size() < out.size())
    b.addFactor({kNullDim}, {int64_t(out.size()) - 1}, out.back(), FactorKind::NeedReplication);
  else if (in.size() > out.size())
    b.addFactor({int64_t(in.size()) - 1}, {kNullDim}, in.back(), FactorKind::NeedReplication);
  return b.build();
}

std::optional<OpShardingRule> cholesky(const Module &m, OpId op) {
  std::vector<int64_t> shape = shapeOf(m, m.operand(op, 0));
  int64_t batch = int64_t(shape.size()) - 2;
  RuleBuilder b(m, op);
  b.addPointwise(shape, [&](int64_t d) {
    return d < batch ? FactorKind::PassThrough : FactorKind::NeedReplication;
  });
  return b.build();
}

std::optional<OpShardingRule> triangularSolve(const Module &m, OpId op) {
  std::vector<int64_t> a = shapeOf(m, m.operand(op, 0)), bShape = shapeOf(m, m.operand(op, 1));
  if (a.size() < 2 || bShape.size() < 2) return std::nullopt;
  RuleBuilder b(m, op);
  b.addPointwise(std::vector<int64_t>(a.begin(), a.end() - 2));
  int64_t d1 = int64_t(a.size()) - 2, d2 = int64_t(a.size()) - 1;
  AttrId t = m.attr(op, "transpose_a");
  bool transposed = t != kNoAttr && (m.attrs.get(t).text.find("TRANSPOSE>") != std::string::npos ||
                                     m.attrs.get(t).text.find("ADJOINT") != std::string::npos) &&
                    m.attrs.get(t).text.find("NO_TRANSPOSE") == std::string::npos;
  bool left = intAttr(m, op, "left_side", 0) != 0;
  const FactorKind nr = FactorKind::NeedReplication;
  if (left) {
    int64_t aNon = transposed ? d2 : d1, aCon = transposed ? d1 : d2;
    b.addFactor({aNon, d1}, {kNullDim}, a[size_t(aNon)], nr);
    b.addFactor({kNullDim, d2}, {d2}, bShape[size_t(d2)], nr);
    b.addFactor({aCon, kNullDim}, {d1}, a[size_t(aCon)], nr);
  } else {
    int64_t aNon = transposed ? d1 : d2, aCon = transposed ? d2 : d1;
    b.addFactor({kNullDim, d1}, {d1}, bShape[size_t(d1)], nr);
    b.addFactor({aNon, d2}, {kNullDim}, a[size_t(aNon)], nr);
    b.addFactor({aCon, kNullDim}, {d2}, a[size_t(aCon)], nr);
  }
  return b.build();
}

// all_gather / all_to_all / reduce_scatter: the dimensions the collective
// works on must not be sharded (an operand and a result factor, both
// need-replication); the other dimensions pass through and come first.
std::optional<OpShardingRule> collective(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op, 0));
  std::vector<int64_t> special;
  if (name == "stablehlo.all_gather")
    special = {intAttr(m, op, "all_gather_dim", 0)};
  else if (name == "stablehlo.reduce_scatter")
    special = {intAttr(m, op, "scatter_dimension", 0)};
  else {
    special = {intAttr(m, op, "split_dimension", 0)};
    int64_t concat = intAttr(m, op, "concat_dimension", 0);
    if (concat != special[0]) special.push_back(concat);
  }
  for (int64_t d : special)
    if (d < 0 || size_t(d) >= in.size() || size_t(d) >= out.size()) return std::nullopt;
  RuleBuilder b(m, op);
  for (size_t d = 0; d < in.size(); ++d)
    if (std::find(special.begin(), special.end(), int64_t(d)) == special.end())
      b.addFactor(int64_t(d), in[d]);
  for (int64_t d : special) {
    b.addFactorAll(d, kNullDim, in[size_t(d)], FactorKind::NeedReplication);
    b.addFactorAll(kNullDim, d, out[size_t(d)], FactorKind::NeedReplication);
  }
  return b.build();
}

// rng_bit_generator: the state must stay replicated and no sharding may flow
// between the initial and the output state; the random output is free.
std::optional<OpShardingRule> rngBitGenerator(const Module &m, OpId op) {
  if (m.numResults(op) < 2) return std::nullopt;
  std::vector<int64_t> state = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op, 1));
  RuleBuilder b(m, op);
  for (size_t d = 0; d < state.size(); ++d)
    b.addFactor({int64_t(d)}, {int64_t(d), kNullDim}, state[d], FactorKind::NeedReplication, true);
  for (size_t d = 0; d < out.size(); ++d) b.addFactor({kNullDim}, {kNullDim, int64_t(d)}, out[d]);
  return b.build();
}

// batch_norm_inference / _training / _grad: the full-rank tensors (operand,
// output, gradients) share every dimension; the per-feature tensors (scale,
// offset, mean, variance and their gradients) follow the feature dimension.
// Sharding a non-feature dimension in training or grad leaves the per-feature
// statistics as partial sums; the factor is still pass-through because the
// full-rank output is not partial, so the (small) all-reduce of the
// statistics is the partitioner's, not the rule's.
std::optional<OpShardingRule> batchNorm(const Module &m, OpId op) {
  int64_t feature = intAttr(m, op, "feature_index", -1);
  std::vector<int64_t> shape = shapeOf(m, m.operand(op, 0));
  if (feature < 0 || size_t(feature) >= shape.size()) return std::nullopt;
  auto dimsOf = [&](auto numTensors, auto valueAt, int64_t d) {
    std::vector<int64_t> dims;
    for (uint32_t i = 0; i < numTensors; ++i) {
      size_t rank = shapeOf(m, valueAt(i)).size();
      dims.push_back(rank == shape.size() ? d : (rank == 1 && d == feature ? 0 : kNullDim));
    }
    return dims;
  };
  RuleBuilder b(m, op);
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dd = int64_t(d);
    b.addFactor(dimsOf(m.numOperands(op), [&](uint32_t i) { return m.operand(op, i); }, dd),
                dimsOf(m.numResults(op), [&](uint32_t i) { return m.result(op, i); }, dd),
                shape[d]);
  }
  return b.build();
}

// rng: the scalar bounds and the shape operand have nothing to shard; each
// result dimension is free (every device draws its own shard).
std::optional<OpShardingRule> rng(const Module &m, OpId op) {
  std::vector<int64_t> out = shapeOf(m, m.result(op));
  RuleBuilder b(m, op);
  for (size_t d = 0; d < out.size(); ++d)
    b.addFactor(std::vector<int64_t>(m.numOperands(op), kNullDim), {int64_t(d)}, out[d]);
  return b.build();
}

// Whether a result of `op` feeds a rng_bit_generator (its state operand must
// be replicated, so nothing may propagate into it). A scan of the enclosing
// function: the custom calls that ask are rare.
bool feedsRngBitGenerator(const Module &m, OpId op) {
  OpId scope = m.enclosingFunc(op);
  if (scope == kNone) scope = m.top;
  uint32_t first = m.result(op, 0), last = first + m.numResults(op);
  bool found = false;
  m.walk(scope, [&](OpId user) {
    if (found || !m.isa(user, "stablehlo.rng_bit_generator")) return;
    for (ValueId v : m.operands(user)) found = found || (v >= first && v < last);
  });
  return found;
}

std::optional<OpShardingRule> customCall(const Module &m, OpId op, Diagnostics *diags) {
  std::string_view target = m.attrs.stringValue(m.attr(op, "call_target_name"));
  // Targets whose results are element-wise in their operands (placement and
  // layout annotations, 64-bit split/combine, erf, debugging hooks).
  static const std::unordered_set<std::string_view> pointwiseTargets = {
      "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
      "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint",
      "MoveToDevice", "MoveToHost", "mhlo.erf", "X64SplitHigh", "X64SplitLow",
      "xla.megascale.provide_metadata", "tt.mark_argument", "tt.sharding_constraint", "Sharding"};
  // Host callbacks and opaque kernels: nothing is known, and nothing to warn.
  static const std::unordered_set<std::string_view> opaqueTargets = {
      "sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback", "xla_python_gpu_callback",
      "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback", "SPMDFullToShardShape",
      "SPMDShardToFullShape"};
  if (opaqueTargets.count(target) || m.numResults(op) == 0) return std::nullopt;
  if (pointwiseTargets.count(target)) return pointwise(m, op);
  std::vector<int64_t> in = m.numOperands(op) ? shapeOf(m, m.operand(op, 0)) : std::vector<int64_t>{};
  const FactorKind nr = FactorKind::NeedReplication;
  if (target == "X64Combine") {
    // The state operand of rng_bit_generator must be replicated and nothing
    // can reshard in between, so feeding one blocks propagation.
    bool block = feedsRngBitGenerator(m, op);
    RuleBuilder b(m, op);
    std::vector<int64_t> shape = shapeOf(m, m.result(op, 0));
    for (size_t d = 0; d < shape.size(); ++d)
      b.addFactor(int64_t(d), shape[d], block ? nr : FactorKind::PassThrough, block);
    return b.build();
  }
  if (in.size() >= 2 && m.numOperands(op) >= 1) {
    int64_t n1 = int64_t(in.size()) - 2, n2 = int64_t(in.size()) - 1;
    std::vector<int64_t> batch(in.begin(), in.end() - 2);
    if (target == "Eigh" && m.numResults(op) == 2) {
      // Eigenvectors share both matrix dims with the input, eigenvalues the
      // last one; the decomposition still needs communication if sharded.
      RuleBuilder b(m, op);
      b.addPointwise(batch);
      b.addFactor({n1}, {n1, kNullDim}, in[size_t(n1)]);
      b.addFactor({n2}, {n2, n1}, in[size_t(n2)]);
      return b.build();
    }
    if ((target == "Qr" || target == "QrDecompositionBlock") && m.numResults(op) == 2) {
      // Q/R keep the matrix dims of the input, taus have min(m, n) entries;
      // the factorization needs whole matrices.
      std::vector<int64_t> taus = shapeOf(m, m.result(op, 1));
      if (taus.size() != in.size() - 1) return std::nullopt;
      RuleBuilder b(m, op);
      b.addPointwise(batch);
      b.addFactor({n1}, {n1, kNullDim}, in[size_t(n1)], nr);
      b.addFactor({n2}, {n2, kNullDim}, in[size_t(n2)], nr);
      b.addFactor({kNullDim}, {kNullDim, n1}, taus[size_t(n1)], nr);
      return b.build();
    }
    if (target == "ProductOfElementaryHouseholderReflectors" && m.numOperands(op) == 2) {
      std::vector<int64_t> taus = shapeOf(m, m.operand(op, 1));
      if (taus.size() != in.size() - 1) return std::nullopt;
      RuleBuilder b(m, op);
      b.addPointwise(batch);
      b.addFactor({n1, kNullDim}, {n1}, in[size_t(n1)], nr);
      b.addFactor({n2, kNullDim}, {n2}, in[size_t(n2)], nr);
      b.addFactor({kNullDim, n1}, {kNullDim}, taus[size_t(n1)], nr);
      return b.build();
    }
  }
  if (target == "mhlo.topk" && m.numResults(op) == 2) {
    // The top-k dimension needs every element and must not be propagated
    // through; the batch dimensions pass.
    RuleBuilder b(m, op);
    b.addPointwiseWithKindForMismatch(in, shapeOf(m, m.result(op, 0)), nr, true);
    return b.build();
  }
  if ((target == "ApproxTopK" || target == "PartialReduce") && m.numOperands(op) == 4 &&
      m.numResults(op) == 2) {
    // Operands: operand, iota, init value, init index; results: values and
    // indices. The reduced dimension has an operand factor (the input can be
    // sharded) and a separate result factor that needs replication.
    std::vector<int64_t> out = shapeOf(m, m.result(op, 0));
    if (in.size() != out.size()) return std::nullopt;
    RuleBuilder b(m, op);
    for (size_t d = 0; d < in.size(); ++d) {
      int64_t dd = int64_t(d);
      if (in[d] == out[d]) {
        b.addFactor(dd, in[d]);
        continue;
      }
      b.addFactor({dd, dd, kNullDim, kNullDim}, {kNullDim, kNullDim}, in[d]);
      b.addFactor({kNullDim, kNullDim, kNullDim, kNullDim}, {dd, dd}, out[d], nr, true);
    }
    return b.build();
  }
  warnOnce(diags, m, op, "custom_call:" + std::string(target),
           "custom call @" + std::string(target) +
               " is unknown to SDY sharding rule registry; autopart keeps its operands and "
               "results replicated");
  return std::nullopt;
}

}  // namespace

bool isDataFlowOp(const Module &m, OpId op) {
  std::string_view n = m.opName(op);
  return n == "stablehlo.while" || n == "stablehlo.case" || n == "stablehlo.if" ||
         n == "stablehlo.optimization_barrier" || n == "func.call" ||
         n == "sdy.manual_computation" || n == "sdy.named_computation";
}

std::optional<OpShardingRule> getOpShardingRule(const Module &m, OpId op, const RuleOptions &o,
                                                Diagnostics *diags) {
  AttrId existing = m.attr(op, "sdy.sharding_rule");
  if (existing != kNoAttr && m.attrs.kind(existing) == AttrKind::ShardingRule)
    return *m.attrs.get(existing).rule;
  std::string_view name = m.opName(op);
  if (ruleLessOps().count(name)) return std::nullopt;
  // Dynamic shapes have no static factor sizes.
  for (ValueId v : m.operands(op))
    if (m.types.hasDynamicDim(m.type(v))) return std::nullopt;
  for (uint32_t i = 0; i < m.numResults(op); ++i)
    if (m.types.hasDynamicDim(m.type(m.result(op, i)))) return std::nullopt;
  for (ValueId v : m.operands(op))
    if (!m.types.isTensor(m.type(v)) && m.types.get(m.type(v)).kind != TypeKind::Token) {
      if (m.types.get(m.type(v)).kind == TypeKind::Tuple) return std::nullopt;
    }
  if (m.numResults(op) == 0 || !m.types.isTensor(m.type(m.result(op, 0)))) return std::nullopt;

  if (name.starts_with("stablehlo.") || name.starts_with("chlo.")) {
    std::string_view s = name.substr(name.find('.') + 1);
    if (pointwiseOps().count(s) || s == "erf" || s == "all_reduce" || s == "clamp" || s == "select")
      return pointwise(m, op);
    if (s == "broadcast_in_dim") return broadcastInDim(m, op);
    if (s == "transpose") return transpose(m, op);
    if (s == "reshape") return reshapeRule(m, op);
    if (s == "reduce") return reduce(m, op);
    if (s == "dot_general") return dotGeneralRule(m, op);
    if (s == "dot") return dotRule(m, op);
    if (s == "convolution") return convolutionRule(m, op, o);
    if (s == "concatenate") return concatenate(m, op, o);
    if (s == "slice") return sliceLike(m, op, o, m.operand(op, 0), m.result(op));
    if (s == "pad") return sliceLike(m, op, o, m.operand(op, 0), m.result(op));
    if (s == "reduce_window") return reduceWindow(m, op, o);
    if (s == "select_and_scatter") return selectAndScatter(m, op, o);
    if (s == "rng_bit_generator") return rngBitGenerator(m, op);
    if (s == "dynamic_slice") return dynamicSlice(m, op);
    if (s == "reverse") return reverse(m, op);
    if (s == "dynamic_update_slice") return dynamicUpdateSlice(m, op);
    if (s == "gather") return gatherRule(m, op);
    if (s == "scatter") return scatterRule(m, op);
    if (s == "sort") return sort(m, op);
    if (s == "bitcast_convert") return bitcastConvert(m, op);
    if (s == "cholesky") return cholesky(m, op);
    if (s == "fft") return fft(m, op);
    if (s == "triangular_solve") return triangularSolve(m, op);
    if (s == "all_gather" || s == "all_to_all" || s == "reduce_scatter") return collective(m, op);
    if (s == "custom_call") return customCall(m, op, diags);
    if (s == "composite") return compositeRule(m, op, o, diags);
    if (s.starts_with("batch_norm_")) return batchNorm(m, op);
    if (s == "uniform_quantize" || s == "uniform_dequantize" || s == "collective_broadcast")
      return pointwise(m, op);
    if (s == "rng") return rng(m, op);
    // The dynamic forms, once their shapes are static (checked above), shard
    // like their static counterparts; the shape operands are tiny and get
    // factors of their own.
    if (s == "dynamic_broadcast_in_dim") return broadcastInDim(m, op);
    if (s == "dynamic_reshape") return reshapeRule(m, op);
    if (s == "dynamic_pad") return sliceLike(m, op, o, m.operand(op, 0), m.result(op));
    if (s == "dynamic_gather") return gatherRule(m, op);
    if (s == "dynamic_conv") return convolutionRule(m, op, o);
  }
  if (name == "sdy.sharding_constraint" || name.starts_with("sdy.all_") ||
      name == "sdy.reduce_scatter" || name == "sdy.collective_permute")
    return pointwise(m, op);
  warnOnce(diags, m, op, std::string(name),
           "op '" + std::string(name) +
               "' is unknown to SDY sharding rule registry; autopart keeps its operands and "
               "results replicated");
  return std::nullopt;
}

}  // namespace autopart
