// Rules of contractions. dot_general: batch factors first, then lhs and rhs
// non-contracting factors in result order, then the contracting (reduction)
// factors:
//
//   (tensor<4x8x32>, tensor<4x32x16>) batching [0]x[0], contracting [2]x[1]
//   -> ([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}
//
// convolution: per-group batch, spatial dims split into a number-of-windows
// factor (permutation: halo exchange) and a window-size factor (reduction),
// the larger first, input features (reduction) and output features.
#include "ir/StablehloAttrs.h"
#include "rules/RuleFamilies.h"

namespace autopart::rules {

static bool contains(const std::vector<int64_t> &v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::optional<OpShardingRule> dotGeneralRule(const Module &m, OpId op) {
  std::optional<DotDims> d = getDotDims(m, op);
  if (!d || d->lhsBatch.size() != d->rhsBatch.size() || d->lhsContract.size() != d->rhsContract.size())
    return std::nullopt;
  std::vector<int64_t> lhs = shapeOf(m, m.operand(op, 0)), rhs = shapeOf(m, m.operand(op, 1));
  RuleBuilder b(m, op);
  int64_t outDim = 0;
  for (size_t i = 0; i < d->lhsBatch.size(); ++i)
    b.addFactor({d->lhsBatch[i], d->rhsBatch[i]}, {outDim++}, lhs[size_t(d->lhsBatch[i])]);
  for (int64_t i = 0; i < int64_t(lhs.size()); ++i)
    if (!contains(d->lhsContract, i) && !contains(d->lhsBatch, i))
      b.addFactor({i, kNullDim}, {outDim++}, lhs[size_t(i)]);
  for (int64_t i = 0; i < int64_t(rhs.size()); ++i)
    if (!contains(d->rhsContract, i) && !contains(d->rhsBatch, i))
      b.addFactor({kNullDim, i}, {outDim++}, rhs[size_t(i)]);
  for (size_t i = 0; i < d->lhsContract.size(); ++i)
    b.addFactor({d->lhsContract[i], d->rhsContract[i]}, {kNullDim}, lhs[size_t(d->lhsContract[i])],
                FactorKind::Reduction);
  return b.build();
}

std::optional<OpShardingRule> dotRule(const Module &m, OpId op) {
  std::vector<int64_t> lhs = shapeOf(m, m.operand(op, 0)), rhs = shapeOf(m, m.operand(op, 1));
  if (lhs.empty() || rhs.empty()) return std::nullopt;
  bool lhsMatrix = lhs.size() == 2, rhsMatrix = rhs.size() == 2;
  RuleBuilder b(m, op);
  if (lhsMatrix) b.addFactor({0, kNullDim}, {0}, lhs[0]);
  if (rhsMatrix) b.addFactor({kNullDim, 1}, {lhsMatrix ? 1 : 0}, rhs[1]);
  b.addFactor({lhsMatrix ? 1 : 0, 0}, {kNullDim}, rhs[0], FactorKind::Reduction);
  return b.build();
}

std::optional<OpShardingRule> convolutionRule(const Module &m, OpId op, const RuleOptions &o) {
  std::optional<ConvDims> d = getConvDims(m, op);
  if (!d) return std::nullopt;
  std::vector<int64_t> lhs = shapeOf(m, m.operand(op, 0)), rhs = shapeOf(m, m.operand(op, 1)),
                       out = shapeOf(m, m.result(op));
  int64_t batchGroups = intAttr(m, op, "batch_group_count", 1);
  int64_t featureGroups = intAttr(m, op, "feature_group_count", 1);
  if (batchGroups < 1 || featureGroups < 1) return std::nullopt;
  RuleBuilder b(m, op);
  if (batchGroups > 1)
    b.addFactor({d->inputBatch, d->kernelOutput}, {d->outputFeature}, batchGroups);
  // Per-group sizes of 1 say "not sharded" and are left out of dimensions
  // the group-count factor already describes.
  auto addPerGroup = [&](const std::vector<int64_t> &ops, int64_t res, int64_t size, FactorKind kind) {
    if (size == 1)
      b.addUnitFactorWhereFree(ops, {res}, kind);
    else
      b.addFactor(ops, {res}, size, kind);
  };
  addPerGroup({d->inputBatch, kNullDim}, d->outputBatch, out[size_t(d->outputBatch)],
              FactorKind::PassThrough);
  if (!o.conservativePropagation) {
    for (size_t s = 0; s < d->inputSpatial.size() && s < d->kernelSpatial.size() &&
                       s < d->outputSpatial.size();
         ++s) {
      int64_t lhsDim = d->inputSpatial[s], rhsDim = d->kernelSpatial[s], outDim = d->outputSpatial[s];
      int64_t numWindows = out[size_t(outDim)], windowSize = rhs[size_t(rhsDim)];
      int64_t remaining = lhs[size_t(lhsDim)];
      auto addSpatial = [&](int64_t size, bool contracting) {
        size = std::min(remaining, size);
        if (size <= 1) return;
        b.addFactor({lhsDim, contracting ? rhsDim : kNullDim}, {contracting ? kNullDim : outDim}, size,
                    contracting ? FactorKind::Reduction : FactorKind::Permutation);
        remaining /= size;
      };
      if (numWindows >= windowSize) {
        addSpatial(numWindows, false);
        addSpatial(windowSize, true);
      } else {
        addSpatial(windowSize, true);
        addSpatial(numWindows, false);
      }
    }
  }
  if (featureGroups > 1)
    b.addFactor({d->inputFeature, d->kernelOutput}, {d->outputFeature}, featureGroups);
  addPerGroup({d->inputFeature, d->kernelInput}, kNullDim, rhs[size_t(d->kernelInput)],
              FactorKind::Reduction);
  addPerGroup({kNullDim, d->kernelOutput}, d->outputFeature,
              out[size_t(d->outputFeature)] / (batchGroups * featureGroups), FactorKind::PassThrough);
  return b.build();
}

}  // namespace autopart::rules
