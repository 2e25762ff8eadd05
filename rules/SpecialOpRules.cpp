// Rules of the ops with special structure: the collectives StableHLO spells
// out, random-number generation, FFT, the linear-algebra ops and batch norm.
// Most have dimensions that must stay whole (need-replication factors): the
// dimensions a collective gathers or splits, the transformed dimensions of
// an FFT, the matrix dimensions of a factorisation.
//
//   stablehlo.cholesky %a : tensor<16x64x64xf32>
//   -> ([i, j, k])->([i, j, k]) {i=16, j=64, k=64} need_replication={j, k}
#include "rules/RuleFamilies.h"

#include <algorithm>

namespace autopart {
namespace rules {

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

}  // namespace rules
}  // namespace autopart
