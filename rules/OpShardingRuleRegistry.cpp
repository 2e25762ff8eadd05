// The registry's entry point: an op's own `sdy.sharding_rule` wins, then the
// op table's builder (rules/OpTable.cpp) for ops with static shapes.
#include "rules/OpShardingRuleRegistry.h"

#include <string>

#include "rules/RuleFamilies.h"

namespace autopart {

bool isDataFlowOp(const Module &m, OpId op) { return isDataFlowKind(opInfo(m, op)); }

std::optional<OpShardingRule> getOpShardingRule(const Module &m, OpId op, const RuleOptions &o,
                                                Diagnostics *diags) {
  AttrId existing = m.attr(op, "sdy.sharding_rule");
  if (existing != kNoAttr && m.attrs.kind(existing) == AttrKind::ShardingRule)
    return *m.attrs.get(existing).rule;
  std::string_view name = m.opName(op);
  const OpInfo *info = lookupOpInfo(name);
  if (info && !info->rule) return std::nullopt;
  // Dynamic shapes have no static factor sizes.
  for (ValueId v : m.operands(op))
    if (m.types.hasDynamicDim(m.type(v))) return std::nullopt;
  for (uint32_t i = 0; i < m.numResults(op); ++i)
    if (m.types.hasDynamicDim(m.type(m.result(op, i)))) return std::nullopt;
  for (ValueId v : m.operands(op))
    if (m.types.get(m.type(v)).kind == TypeKind::Tuple) return std::nullopt;
  if (m.numResults(op) == 0 || !m.types.isTensor(m.type(m.result(op, 0)))) return std::nullopt;
  if (info) return info->rule(m, op, o, diags);
  rules::warnOnce(diags, m, op, std::string(name),
                  "op '" + std::string(name) +
                      "' is unknown to SDY sharding rule registry; autopart keeps its operands and "
                      "results replicated");
  return std::nullopt;
}

}  // namespace autopart
