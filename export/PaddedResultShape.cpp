#include "export/PaddedResultShape.h"

#include <algorithm>

#include "asm/StablehloSyntaxHelpers.h"
#include "ir/StablehloAttrs.h"
#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

std::vector<int64_t> passThroughShape(const Module &m, OpId op, uint32_t r,
                                      const std::vector<std::vector<int64_t>> &operandShapes) {
  TypeId resultType = m.type(m.result(op, r));
  std::vector<int64_t> out = m.types.shape(resultType);
  std::optional<OpShardingRule> rule = getOpShardingRule(m, op);
  if (!rule) {
    if (isDataFlowOp(m, op) && r < m.numOperands(op) && m.type(m.operand(op, r)) == resultType &&
        operandShapes[r].size() == out.size())
      for (size_t d = 0; d < out.size(); ++d) out[d] = std::max(out[d], operandShapes[r][d]);
    return out;
  }
  if (r >= rule->results.size() || rule->results[r].size() != out.size()) return out;
  const std::vector<int64_t> origOut = out;
  for (size_t d = 0; d < out.size(); ++d) {
    const OpShardingRule::DimFactors &factors = rule->results[r][d];
    if (factors.size() != 1) continue;
    for (size_t i = 0; i < rule->operands.size() && i < operandShapes.size(); ++i) {
      const std::vector<int64_t> &origIn = m.types.shape(m.type(m.operand(op, uint32_t(i))));
      for (size_t e = 0; e < rule->operands[i].size() && e < origIn.size(); ++e)
        if (rule->operands[i][e] == factors && origIn[e] == origOut[d] && e < operandShapes[i].size())
          out[d] = std::max(out[d], operandShapes[i][e]);
    }
  }
  return out;
}

std::optional<std::vector<std::vector<bool>>> carriedOperandDims(const Module &m, OpId op) {
  std::optional<OpShardingRule> rule = getOpShardingRule(m, op);
  if (!rule) return std::nullopt;
  std::vector<std::vector<bool>> out;
  for (size_t i = 0; i < rule->operands.size() && i < m.numOperands(op); ++i) {
    const std::vector<int64_t> &in = m.types.shape(m.type(m.operand(op, uint32_t(i))));
    std::vector<bool> carried(rule->operands[i].size(), false);
    for (size_t e = 0; e < carried.size() && e < in.size(); ++e) {
      const OpShardingRule::DimFactors &factors = rule->operands[i][e];
      for (int32_t f : factors) carried[e] = carried[e] || rule->kind(f) == FactorKind::Reduction;
      if (factors.size() != 1) continue;
      for (size_t r = 0; r < rule->results.size() && !carried[e]; ++r) {
        const std::vector<int64_t> &out = m.types.shape(m.type(m.result(op, uint32_t(r))));
        for (size_t d = 0; d < rule->results[r].size() && d < out.size(); ++d)
          if (rule->results[r][d] == factors && out[d] == in[e]) carried[e] = true;
      }
    }
    out.push_back(std::move(carried));
  }
  return out;
}

namespace {

int64_t intAttrOr(const Module &m, OpId op, std::string_view name, int64_t dflt) {
  AttrId a = m.attr(op, name);
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Integer ? m.attrs.get(a).intValue : dflt;
}

int64_t dilated(int64_t size, int64_t dilation) { return size == 0 ? 0 : (size - 1) * dilation + 1; }

}  // namespace

std::optional<std::vector<int64_t>> convolutionShape(const Module &m, OpId op, const std::vector<int64_t> &lhs,
                                                     const std::vector<int64_t> &rhs) {
  std::optional<ConvDims> dims = getConvDims(m, op);
  if (!dims) return std::nullopt;
  size_t rank = m.types.shape(m.type(m.result(op))).size();
  size_t spatial = dims->inputSpatial.size();
  if (lhs.size() != rank || rhs.size() != rank || dims->kernelSpatial.size() != spatial ||
      dims->outputSpatial.size() != spatial)
    return std::nullopt;
  int64_t featureGroups = intAttrOr(m, op, "feature_group_count", 1);
  int64_t batchGroups = intAttrOr(m, op, "batch_group_count", 1);
  if (featureGroups < 1 || batchGroups < 1 || lhs[dims->inputBatch] % batchGroups != 0 ||
      lhs[dims->inputFeature] != rhs[dims->kernelInput] * featureGroups)
    return std::nullopt;
  std::vector<int64_t> strides = intsOf(m, op, "window_strides"), lhsDil = intsOf(m, op, "lhs_dilation"),
                       rhsDil = intsOf(m, op, "rhs_dilation"), padding = intsOf(m, op, "padding");
  auto at = [](const std::vector<int64_t> &v, size_t i, int64_t dflt) { return i < v.size() ? v[i] : dflt; };
  std::vector<int64_t> out(rank, 0);
  out[dims->outputBatch] = lhs[dims->inputBatch] / batchGroups;
  out[dims->outputFeature] = rhs[dims->kernelOutput];
  for (size_t i = 0; i < spatial; ++i) {
    int64_t input = dilated(lhs[dims->inputSpatial[i]], at(lhsDil, i, 1)) + at(padding, 2 * i, 0) +
                    at(padding, 2 * i + 1, 0);
    int64_t window = dilated(rhs[dims->kernelSpatial[i]], at(rhsDil, i, 1));
    int64_t stride = at(strides, i, 1);
    if (stride < 1) return std::nullopt;
    out[dims->outputSpatial[i]] = input < window ? 0 : (input - window) / stride + 1;
  }
  return out;
}

}  // namespace autopart
