// Internal to rules/: the rule builders of each op family, which the op
// table (rules/OpTable.cpp) points at, and the helpers they share. The public
// entry points are rules/OpShardingRuleRegistry.h and rules/OpInfo.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/OpShardingRuleRegistry.h"
#include "rules/RuleBuilder.h"

namespace autopart {
namespace rules {

// Helpers (rules/RuleHelpers.cpp).
std::vector<int64_t> shapeOf(const Module &m, ValueId v);
std::vector<int64_t> intsAttr(const Module &m, OpId op, std::string_view name);
int64_t intAttr(const Module &m, OpId op, std::string_view name, int64_t dflt);
OpShardingRule pointwise(const Module &m, OpId op);
// Warns once per module and `key` (an op or call-target name).
void warnOnce(Diagnostics *diags, const Module &m, OpId op, const std::string &key, const std::string &message);

// Data movement (rules/DataMovementRules.cpp).
std::optional<OpShardingRule> broadcastInDim(const Module &m, OpId op);
std::optional<OpShardingRule> transpose(const Module &m, OpId op);
std::optional<OpShardingRule> concatenate(const Module &m, OpId op, const RuleOptions &o);
std::optional<OpShardingRule> sliceLike(const Module &m, OpId op, const RuleOptions &o, ValueId in, ValueId out);
std::optional<OpShardingRule> sliceOrPad(const Module &m, OpId op, const RuleOptions &o);
std::optional<OpShardingRule> dynamicUpdateSlice(const Module &m, OpId op);
std::optional<OpShardingRule> reverse(const Module &m, OpId op);
std::optional<OpShardingRule> dynamicSlice(const Module &m, OpId op);
std::optional<OpShardingRule> bitcastConvert(const Module &m, OpId op);
std::optional<OpShardingRule> reshapeRule(const Module &m, OpId op);

// Reductions (rules/ReductionRules.cpp).
std::optional<OpShardingRule> reduce(const Module &m, OpId op);
std::optional<OpShardingRule> reduceWindow(const Module &m, OpId op, const RuleOptions &o);
std::optional<OpShardingRule> selectAndScatter(const Module &m, OpId op, const RuleOptions &o);
std::optional<OpShardingRule> sort(const Module &m, OpId op);

// Contractions (rules/ContractionRules.cpp).
std::optional<OpShardingRule> dotGeneralRule(const Module &m, OpId op);
std::optional<OpShardingRule> dotRule(const Module &m, OpId op);
std::optional<OpShardingRule> convolutionRule(const Module &m, OpId op, const RuleOptions &o);

// Gather and scatter (rules/GatherScatterRules.cpp).
std::optional<OpShardingRule> gatherRule(const Module &m, OpId op);
std::optional<OpShardingRule> scatterRule(const Module &m, OpId op);

// Collectives, random numbers, FFT, linear algebra, batch norm
// (rules/SpecialOpRules.cpp).
std::optional<OpShardingRule> fft(const Module &m, OpId op);
std::optional<OpShardingRule> cholesky(const Module &m, OpId op);
std::optional<OpShardingRule> triangularSolve(const Module &m, OpId op);
std::optional<OpShardingRule> collective(const Module &m, OpId op);
std::optional<OpShardingRule> rngBitGenerator(const Module &m, OpId op);
std::optional<OpShardingRule> batchNorm(const Module &m, OpId op);
std::optional<OpShardingRule> rng(const Module &m, OpId op);

// Custom calls and top-k (rules/CustomCallRules.cpp).
std::optional<OpShardingRule> topK(const Module &m, OpId op);
std::optional<OpShardingRule> customCall(const Module &m, OpId op, Diagnostics *diags);

// stablehlo.composite: the rule of its decomposition (rules/CompositeRule.cpp).
std::optional<OpShardingRule> compositeRule(const Module &m, OpId op, const RuleOptions &o, Diagnostics *diags);

}  // namespace rules
}  // namespace autopart
