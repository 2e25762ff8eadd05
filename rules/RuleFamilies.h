// Internal to rules/: the rule builders of each op family, and helpers they
// share. The public entry point is rules/OpShardingRuleRegistry.h.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "rules/OpShardingRuleRegistry.h"
#include "rules/RuleBuilder.h"

namespace autopart {
namespace rules {

std::vector<int64_t> shapeOf(const Module &m, ValueId v);
std::vector<int64_t> intsAttr(const Module &m, OpId op, std::string_view name);
int64_t intAttr(const Module &m, OpId op, std::string_view name, int64_t dflt);
OpShardingRule pointwise(const Module &m, OpId op);

std::optional<OpShardingRule> reshapeRule(const Module &m, OpId op);
std::optional<OpShardingRule> dotGeneralRule(const Module &m, OpId op);
std::optional<OpShardingRule> dotRule(const Module &m, OpId op);
std::optional<OpShardingRule> convolutionRule(const Module &m, OpId op, const RuleOptions &o);
std::optional<OpShardingRule> gatherRule(const Module &m, OpId op);
std::optional<OpShardingRule> scatterRule(const Module &m, OpId op);
std::optional<OpShardingRule> compositeRule(const Module &m, OpId op, const RuleOptions &o,
                                            Diagnostics *diags);

}  // namespace rules
}  // namespace autopart
