// Builds an OpShardingRule factor by factor, the way every op's rule in the
// registry is written:
//
//   RuleBuilder b(m, op);                  // ranks of operands and results
//   b.addFactor({0, kNullDim}, {0}, 8);    // lhs dim 0 <-> result dim 0
//   b.addFactor({1, 0}, {kNullDim}, 32, FactorKind::Reduction);
//   b.addFactor({kNullDim, 1}, {1}, 16);
//   b.build()  ->  ([i, j], [j, k])->([i, k]) {i=8, j=32, k=16} reduction={j}
//
// `addFactor(dim, size)` maps one dimension index in every non-scalar
// operand and result at once (pointwise ops). `build` gives every dimension
// left without a factor its own factor of size 1, so each dimension of every
// tensor is described.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ir/Module.h"
#include "ir/ShardingRule.h"

namespace autopart {

inline constexpr int64_t kNullDim = -1;

class RuleBuilder {
public:
  RuleBuilder(const std::vector<int64_t> &operandRanks, const std::vector<int64_t> &resultRanks);
  RuleBuilder(const Module &m, OpId op);

  // `blocked`: propagation must not carry a sharding through the factor
  // (Shardy's `blocked_propagation`), whatever its kind.
  RuleBuilder &addFactor(const std::vector<int64_t> &operandDims,
                         const std::vector<int64_t> &resultDims, int64_t size,
                         FactorKind kind = FactorKind::PassThrough, bool blocked = false);
  // The same dimension in every operand and result of non-zero rank.
  RuleBuilder &addFactor(int64_t dim, int64_t size, FactorKind kind = FactorKind::PassThrough,
                         bool blocked = false);
  // One operand dim (for all operands) and one result dim (for all results).
  RuleBuilder &addFactorAll(int64_t operandDim, int64_t resultDim, int64_t size,
                            FactorKind kind = FactorKind::PassThrough, bool blocked = false);
  // Like addFactor, for a factor of size 1 that only says "this dimension is
  // not sharded": it is left out of dimensions that already have a factor
  // (where it would carry nothing), and not created at all if no dimension
  // is left.
  RuleBuilder &addUnitFactorWhereFree(const std::vector<int64_t> &operandDims,
                                      const std::vector<int64_t> &resultDims,
                                      FactorKind kind = FactorKind::PassThrough);
  RuleBuilder &addPointwise(const std::vector<int64_t> &shape,
                            const std::function<FactorKind(int64_t)> &kind = {});
  RuleBuilder &addPointwiseIf(const std::vector<int64_t> &shape,
                              const std::function<bool(int64_t)> &pred,
                              const std::function<FactorKind(int64_t)> &kind = {});
  RuleBuilder &addPointwiseIfDimSizesMatch(
      const std::vector<int64_t> &inShape, const std::vector<int64_t> &outShape,
      const std::function<void(int64_t, RuleBuilder &)> &onMismatch = {});
  // Factor sizes follow `inShape`; dimensions whose sizes differ get
  // `mismatchKind`, blocked for propagation if `mismatchBlocked`.
  RuleBuilder &addPointwiseWithKindForMismatch(const std::vector<int64_t> &inShape,
                                               const std::vector<int64_t> &outShape,
                                               FactorKind mismatchKind,
                                               bool mismatchBlocked = false);
  // Marks the factor last added as blocked for propagation.
  RuleBuilder &blockLast() {
    blocked_.push_back(int32_t(sizes_.size()) - 1);
    return *this;
  }
  void setCustom() { custom_ = true; }
  OpShardingRule build() const;

  size_t numOperands() const { return operands_.size(); }
  size_t numResults() const { return results_.size(); }

private:
  std::vector<OpShardingRule::TensorFactors> operands_, results_;
  std::vector<int64_t> sizes_;
  std::vector<int32_t> reduction_, needReplication_, permutation_, blocked_;
  bool custom_ = false;
};

}  // namespace autopart
