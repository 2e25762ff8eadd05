// Where the simulator gets an op's sharding rule. The op's own
// `sdy.sharding_rule` attribute wins (tests and already-annotated programs
// carry one); otherwise the rule registry in rules/ is asked. The simulator
// never derives op semantics itself.
//
//   %0 = stablehlo.add %a, %b {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>}
//   -> ruleFor(m, op) = that rule
#pragma once

#include <functional>
#include <optional>

#include "ir/Module.h"

namespace autopart {

std::optional<OpShardingRule> ruleFor(const Module &m, OpId op);

// Until the registry in rules/ is linked in, a provider can be installed
// (tests, tools); it is consulted after the attribute.
using RuleProvider = std::function<std::optional<OpShardingRule>(const Module &, OpId)>;
void setRuleProvider(RuleProvider provider);

}  // namespace autopart
