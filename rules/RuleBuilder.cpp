#include "rules/RuleBuilder.h"

namespace autopart {

RuleBuilder::RuleBuilder(const std::vector<int64_t> &operandRanks,
                         const std::vector<int64_t> &resultRanks) {
  for (int64_t r : operandRanks) operands_.push_back(OpShardingRule::TensorFactors(size_t(std::max<int64_t>(r, 0))));
  for (int64_t r : resultRanks) results_.push_back(OpShardingRule::TensorFactors(size_t(std::max<int64_t>(r, 0))));
}

static std::vector<int64_t> ranksOf(const Module &m, std::span<const ValueId> vs) {
  std::vector<int64_t> r;
  for (ValueId v : vs) r.push_back(m.types.isTensor(m.type(v)) ? m.types.rank(m.type(v)) : 0);
  return r;
}

static std::vector<int64_t> resultRanks(const Module &m, OpId op) {
  std::vector<int64_t> r;
  for (uint32_t i = 0; i < m.numResults(op); ++i) {
    TypeId t = m.type(m.result(op, i));
    r.push_back(m.types.isTensor(t) ? m.types.rank(t) : 0);
  }
  return r;
}

RuleBuilder::RuleBuilder(const Module &m, OpId op)
    : RuleBuilder(ranksOf(m, m.operands(op)), resultRanks(m, op)) {}

static void mapDims(std::vector<OpShardingRule::TensorFactors> &tensors,
                    const std::vector<int64_t> &dims, int32_t factor) {
  for (size_t t = 0; t < tensors.size() && t < dims.size(); ++t) {
    int64_t d = dims[t];
    if (d == kNullDim || size_t(d) >= tensors[t].size()) continue;
    tensors[t][size_t(d)].push_back(factor);
  }
}

static void record(std::vector<int32_t> &reduction, std::vector<int32_t> &needRepl,
                   std::vector<int32_t> &perm, FactorKind kind, int32_t f) {
  if (kind == FactorKind::Reduction) reduction.push_back(f);
  if (kind == FactorKind::NeedReplication) needRepl.push_back(f);
  if (kind == FactorKind::Permutation) perm.push_back(f);
}

RuleBuilder &RuleBuilder::addFactor(const std::vector<int64_t> &operandDims,
                                    const std::vector<int64_t> &resultDims, int64_t size,
                                    FactorKind kind, bool blocked) {
  int32_t f = int32_t(sizes_.size());
  mapDims(operands_, operandDims, f);
  mapDims(results_, resultDims, f);
  sizes_.push_back(size);
  record(reduction_, needReplication_, permutation_, kind, f);
  if (blocked) blocked_.push_back(f);
  return *this;
}

static std::vector<int64_t> freeDims(const std::vector<OpShardingRule::TensorFactors> &tensors,
                                     const std::vector<int64_t> &dims, bool &any) {
  std::vector<int64_t> out(dims);
  for (size_t t = 0; t < out.size(); ++t) {
    int64_t d = out[t];
    if (d == kNullDim || t >= tensors.size() || size_t(d) >= tensors[t].size()) {
      out[t] = kNullDim;
      continue;
    }
    if (!tensors[t][size_t(d)].empty()) out[t] = kNullDim;
    else any = true;
  }
  return out;
}

RuleBuilder &RuleBuilder::addUnitFactorWhereFree(const std::vector<int64_t> &operandDims,
                                                 const std::vector<int64_t> &resultDims,
                                                 FactorKind kind) {
  bool any = false;
  std::vector<int64_t> ops = freeDims(operands_, operandDims, any);
  std::vector<int64_t> res = freeDims(results_, resultDims, any);
  if (!any) return *this;
  return addFactor(ops, res, 1, kind);
}

RuleBuilder &RuleBuilder::addFactor(int64_t dim, int64_t size, FactorKind kind, bool blocked) {
  int32_t f = int32_t(sizes_.size());
  for (auto *list : {&operands_, &results_})
    for (OpShardingRule::TensorFactors &t : *list)
      if (!t.empty() && size_t(dim) < t.size()) t[size_t(dim)].push_back(f);
  sizes_.push_back(size);
  record(reduction_, needReplication_, permutation_, kind, f);
  if (blocked) blocked_.push_back(f);
  return *this;
}

RuleBuilder &RuleBuilder::addFactorAll(int64_t operandDim, int64_t resultDim, int64_t size,
                                       FactorKind kind, bool blocked) {
  return addFactor(std::vector<int64_t>(operands_.size(), operandDim),
                   std::vector<int64_t>(results_.size(), resultDim), size, kind, blocked);
}

RuleBuilder &RuleBuilder::addPointwise(const std::vector<int64_t> &shape,
                                       const std::function<FactorKind(int64_t)> &kind) {
  for (size_t d = 0; d < shape.size(); ++d)
    addFactor(int64_t(d), shape[d], kind ? kind(int64_t(d)) : FactorKind::PassThrough);
  return *this;
}

RuleBuilder &RuleBuilder::addPointwiseIf(const std::vector<int64_t> &shape,
                                         const std::function<bool(int64_t)> &pred,
                                         const std::function<FactorKind(int64_t)> &kind) {
  for (size_t d = 0; d < shape.size(); ++d)
    if (pred(int64_t(d)))
      addFactor(int64_t(d), shape[d], kind ? kind(int64_t(d)) : FactorKind::PassThrough);
  return *this;
}

RuleBuilder &RuleBuilder::addPointwiseIfDimSizesMatch(
    const std::vector<int64_t> &inShape, const std::vector<int64_t> &outShape,
    const std::function<void(int64_t, RuleBuilder &)> &onMismatch) {
  for (size_t d = 0; d < inShape.size() && d < outShape.size(); ++d) {
    if (inShape[d] == outShape[d])
      addFactor(int64_t(d), inShape[d]);
    else if (onMismatch)
      onMismatch(int64_t(d), *this);
  }
  return *this;
}

RuleBuilder &RuleBuilder::addPointwiseWithKindForMismatch(const std::vector<int64_t> &inShape,
                                                          const std::vector<int64_t> &outShape,
                                                          FactorKind mismatchKind,
                                                          bool mismatchBlocked) {
  for (size_t d = 0; d < inShape.size() && d < outShape.size(); ++d) {
    bool same = inShape[d] == outShape[d];
    addFactor(int64_t(d), inShape[d], same ? FactorKind::PassThrough : mismatchKind,
              !same && mismatchBlocked);
  }
  return *this;
}

OpShardingRule RuleBuilder::build() const {
  OpShardingRule r;
  r.factorSizes = sizes_;
  r.operands = operands_;
  r.results = results_;
  // Every dimension without a factor gets its own factor of size 1.
  for (auto *list : {&r.operands, &r.results})
    for (OpShardingRule::TensorFactors &t : *list)
      for (OpShardingRule::DimFactors &d : t)
        if (d.empty()) d.push_back(r.addFactor(1));
  r.reductionFactors = reduction_;
  r.needReplicationFactors = needReplication_;
  r.permutationFactors = permutation_;
  r.blockedPropagationFactors = blocked_;
  r.isCustom = custom_;
  return r;
}

}  // namespace autopart
