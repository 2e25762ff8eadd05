#include "sim/RuleLookup.h"

namespace autopart {

static RuleProvider &provider() {
  static RuleProvider p;
  return p;
}

void setRuleProvider(RuleProvider p) { provider() = std::move(p); }

std::optional<OpShardingRule> ruleFor(const Module &m, OpId op) {
  AttrId a = m.attr(op, "sdy.sharding_rule");
  if (a != kNoAttr && m.attrs.kind(a) == AttrKind::ShardingRule) return *m.attrs.get(a).rule;
  if (provider()) return provider()(m, op);
  return std::nullopt;
}

}  // namespace autopart
