// Rules of the ops that move elements without arithmetic: broadcast,
// transpose, concatenate, slice/pad, reverse, the dynamic slices and
// bitcast_convert. Their factors map operand dimensions onto result
// dimensions; dimensions whose extent changes (sliced, padded, concatenated)
// are permutation factors or, under conservative propagation, blocked.
//
//   stablehlo.transpose %x, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
//   -> ([i, j])->([j, i]) {i=4, j=8}
#include "rules/RuleFamilies.h"

#include <algorithm>

namespace autopart {
namespace rules {

namespace {

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

bool isConstant(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  return def != kNone && (m.isa(def, "stablehlo.constant") || m.isa(def, "sdy.constant") ||
                          m.isa(def, "arith.constant"));
}

}  // namespace

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

std::optional<OpShardingRule> sliceOrPad(const Module &m, OpId op, const RuleOptions &o) {
  return sliceLike(m, op, o, m.operand(op, 0), m.result(op));
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

}  // namespace rules
}  // namespace autopart
