// Rules of reductions and of ops that combine elements along a dimension:
// reduce, reduce_window, select_and_scatter and sort. A reduced dimension is
// a reduction factor (sharding it leaves partial results to all-reduce); a
// windowed or sorted dimension needs every element, so it needs replication
// (or, where windows do not straddle shards, passes).
//
//   stablehlo.reduce(%x init: %zero) applies add across dimensions = [1]
//       : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
//   -> ([i, j], [])->([i]) {i=4, j=8} reduction={j}
#include "rules/RuleFamilies.h"

#include <algorithm>

namespace autopart {
namespace rules {

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
  std::vector<int64_t> padding = m.attrs.denseInts(m.attr(op, "padding"));
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

}  // namespace rules
}  // namespace autopart
