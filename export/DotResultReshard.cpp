#include "export/DotResultReshard.h"

#include <algorithm>

#include "ir/FactorProjection.h"

namespace autopart {

namespace {

int64_t numElements(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  return m.types.isTensor(t) && !m.types.hasDynamicDim(t) ? m.types.numElements(t) : 0;
}

}  // namespace

std::optional<TensorSharding> dotResultSharding(const Module &m, OpId op, const OpShardingRule &rule,
                                                const ShardingMap &map, const std::string &meshName,
                                                const Mesh &mesh) {
  if (m.numOperands(op) != 2 || m.numResults(op) != 1 || rule.operands.size() != 2 || rule.results.size() != 1)
    return std::nullopt;
  const TensorSharding *annotated = map.get(m.result(op));
  if (!annotated) return std::nullopt;
  TensorFactorShardings lhs = projectTensor(map.get(m.operand(op, 0)), rule.operands[0], rule, mesh, true);
  TensorFactorShardings rhs = projectTensor(map.get(m.operand(op, 1)), rule.operands[1], rule, mesh, true);
  TensorFactorShardings result = projectTensor(annotated, rule.results[0], rule, mesh, true);
  int64_t lhsSize = numElements(m, m.operand(op, 0)), rhsSize = numElements(m, m.operand(op, 1));
  int64_t resultSize = numElements(m, m.result(op));

  std::optional<size_t> conflicting;
  AxisList conflictingAxes, reductionAxes, nonContractingAxes;
  for (size_t f = 0; f < rule.numFactors(); ++f) {
    bool inLhs = lhs.has(f), inRhs = rhs.has(f);
    if (!inLhs && !inRhs) continue;
    const AxisList &operandAxes = inLhs ? lhs.factors[f].axes : rhs.factors[f].axes;
    int64_t operandSize = inLhs ? lhsSize : rhsSize;
    if (inLhs && inRhs) {
      // Batching or contracting: both operands must agree on it.
      if (lhs.factors[f].axes != rhs.factors[f].axes) return std::nullopt;
      if (rule.kind(int32_t(f)) == FactorKind::Reduction) {
        reductionAxes.insert(reductionAxes.end(), operandAxes.begin(), operandAxes.end());
        continue;
      }
      operandSize = std::max(lhsSize, rhsSize);
    } else {
      // A non-contracting factor: the two operands must not shard theirs
      // over the same axes.
      for (const AxisRef &a : operandAxes) {
        if (overlapsAny(a, nonContractingAxes, mesh)) return std::nullopt;
        nonContractingAxes.push_back(a);
      }
    }
    if (!result.has(f) || result.factors[f].axes == operandAxes) continue;
    // An unsharded operand factor against a sharded result is the
    // reduce-scatter pattern; two differing factors or a result bigger than
    // the operand make a result reshard no cheaper.
    if (operandAxes.empty() || conflicting || resultSize > operandSize) return std::nullopt;
    conflicting = f;
    conflictingAxes = operandAxes;
  }
  if (!conflicting) return std::nullopt;
  AxisList &resultAxes = result.factors[*conflicting].axes;
  if (resultAxes.empty() || resultAxes != reductionAxes) return std::nullopt;
  resultAxes = conflictingAxes;
  TensorSharding s = toTensorSharding(result, rule.results[0], rule, meshName, mesh);
  s.inlineMesh = annotated->inlineMesh;
  s.unreducedKind = annotated->unreducedKind;
  return s;
}

}  // namespace autopart
