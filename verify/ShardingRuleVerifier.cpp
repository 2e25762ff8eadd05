// An op's `sdy.sharding_rule` checked against the op it describes, with
// Shardy's messages: one mapping per operand and result, each as many
// dimensions as its tensor, every dimension made of known factors, no factor
// twice in one tensor, every factor used somewhere, and the special factor
// lists sorted, unique, in range and disjoint.
//
//   %0 = stablehlo.add %a, %b {sdy.sharding_rule =
//          #sdy.op_sharding_rule<([i, j], [i])->([i, j]) {i=2, j=4}>}
//        : tensor<2x4xf32>
//   -> 'stablehlo.add' op operand 1 - mapping rank must match: 1 != 2
//
// Factor sizes are not compared with dimension sizes: a rule may map
// dimensions of different sizes to one factor (a slice's operand and
// result), as Shardy's registry does.
#include <algorithm>
#include <span>

#include "ir/ShardingRule.h"
#include "verify/Verifier.h"

namespace autopart {

namespace {

// Checks the operand (or result) mappings of `rule` against `values`, marking
// in `used` every factor they name. False after the first error.
bool verifyMappings(VerifyContext &ctx, OpId op, std::span<const ValueId> values,
                    const std::vector<OpShardingRule::TensorFactors> &mappings,
                    const std::vector<int64_t> &factorSizes, std::vector<uint8_t> &used,
                    std::string_view kind) {
  const Module &m = ctx.m;
  std::string kindStr(kind);
  if (values.size() != mappings.size()) {
    ctx.opError(op, "number of " + kindStr + "s and mappings must match: " +
                        std::to_string(values.size()) + " != " + std::to_string(mappings.size()));
    return false;
  }
  if (mappings.empty()) {
    ctx.opError(op, "number of " + kindStr +
                        "s mappings cannot be 0. Op sharding rules can only be defined on "
                        "operations with at least one operand and result.");
    return false;
  }
  // Shardy names a value by its index only when the op has several.
  auto valueError = [&](size_t i, const std::string &msg) {
    std::string label = kindStr;
    if (values.size() != 1) label += " " + std::to_string(i);
    ctx.opError(op, label + " - " + msg);
    return false;
  };
  // Which factors the current tensor has used: a stamp per factor avoids
  // clearing a vector per tensor.
  std::vector<uint32_t> seenIn(factorSizes.size(), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    TypeId type = m.type(values[i]);
    const TypeStorage &t = m.types.get(type);
    if (t.kind != TypeKind::Tensor ||
        std::find(t.shape.begin(), t.shape.end(), kDynamic) != t.shape.end())
      return valueError(i, "expected a ranked tensor with a static shape. type: " +
                               std::string(m.types.str(type)));
    const OpShardingRule::TensorFactors &mapping = mappings[i];
    if (mapping.size() != t.shape.size())
      return valueError(i, "mapping rank must match: " + std::to_string(mapping.size()) +
                               " != " + std::to_string(t.shape.size()));
    uint32_t stamp = uint32_t(i) + 1;
    for (const OpShardingRule::DimFactors &dim : mapping) {
      if (dim.empty()) return valueError(i, "dim mapping must have at least one factor");
      for (int32_t f : dim) {
        if (f < 0 || size_t(f) >= factorSizes.size())
          return valueError(i, "expecting factor indices to be within 0<=...<num_factors; "
                               "received: " +
                                   std::to_string(f) +
                                   ", num_factors: " + std::to_string(factorSizes.size()));
        if (seenIn[size_t(f)] == stamp)
          return valueError(i, "cannot reuse factors for the same tensor value");
        // A size-1 factor beside others would make the split of the
        // dimension ambiguous.
        if (factorSizes[size_t(f)] == 1 && dim.size() > 1)
          return valueError(i, "dim mapping can't have a factor of size 1 if there are "
                               "multiple factors");
        seenIn[size_t(f)] = stamp;
        used[size_t(f)] = 1;
      }
    }
  }
  return true;
}

// A special factor list must be sorted, without repeats and name factors of
// the rule.
bool verifyFactorList(VerifyContext &ctx, OpId op, size_t numFactors,
                      const std::vector<int32_t> &factors) {
  if (factors.empty()) return true;
  if (!std::is_sorted(factors.begin(), factors.end())) {
    ctx.opError(op, "indices of special factors must be sorted");
    return false;
  }
  if (std::adjacent_find(factors.begin(), factors.end()) != factors.end()) {
    ctx.opError(op, "indices of special factors must be unique");
    return false;
  }
  if (factors.front() < 0) {
    ctx.opError(op, "index must be non-negative");
    return false;
  }
  if (size_t(factors.back()) >= numFactors) {
    ctx.opError(op, "index must be less than " + std::to_string(numFactors) +
                        ", got: " + std::to_string(factors.back()));
    return false;
  }
  return true;
}

void verifyShardingRule(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  AttrId a = m.attr(op, "sdy.sharding_rule");
  if (a == kNoAttr) return;
  if (m.attrs.kind(a) != AttrKind::ShardingRule) {
    ctx.opError(op, "should have a sharding rule attribute of type OpShardingRuleAttr for attr "
                    "named 'sdy.sharding_rule'");
    return;
  }
  const OpShardingRule &rule = *m.attrs.get(a).rule;
  const std::vector<int64_t> &sizes = rule.factorSizes;
  std::vector<uint8_t> used(sizes.size(), 0);
  if (!verifyMappings(ctx, op, m.operands(op), rule.operands, sizes, used, "operand")) return;
  std::vector<ValueId> results(m.numResults(op));
  for (uint32_t i = 0; i < results.size(); ++i) results[i] = m.result(op, i);
  if (!verifyMappings(ctx, op, results, rule.results, sizes, used, "result")) return;

  if (auto unused = std::find(used.begin(), used.end(), 0); unused != used.end()) {
    size_t f = size_t(unused - used.begin());
    ctx.opError(op, "has factor " + OpShardingRule::factorName(f) + "=" +
                        std::to_string(sizes[f]) +
                        " that isn't used in operand and result mappings");
    return;
  }

  size_t n = sizes.size();
  if (!verifyFactorList(ctx, op, n, rule.reductionFactors) ||
      !verifyFactorList(ctx, op, n, rule.needReplicationFactors) ||
      !verifyFactorList(ctx, op, n, rule.permutationFactors))
    return;
  // The three kinds ask for different communication, so a factor has at
  // most one; the lists are in range here, so a count per factor suffices.
  std::vector<uint8_t> kinds(n, 0);
  for (const std::vector<int32_t> *list :
       {&rule.reductionFactors, &rule.needReplicationFactors, &rule.permutationFactors})
    for (int32_t f : *list)
      if (kinds[size_t(f)]++) {
        ctx.opError(op, "a factor can only be in one of the reduction, need replication, or "
                        "permutation factor sets");
        return;
      }
  // A reduction factor is summed away: a result that keeps it would be
  // partial sums claimed as the final value.
  for (const OpShardingRule::TensorFactors &mapping : rule.results)
    for (const OpShardingRule::DimFactors &dim : mapping)
      for (int32_t f : dim)
        if (std::binary_search(rule.reductionFactors.begin(), rule.reductionFactors.end(), f)) {
          ctx.opError(op, "reduction factor cannot be in result mappings");
          return;
        }
  verifyFactorList(ctx, op, n, rule.blockedPropagationFactors);
}

const OpVerifierRegistration kShardingRule("*", verifyShardingRule);

}  // namespace

}  // namespace autopart
