// `-sdy-populate-op-sharding-rules`: attaches every op's rule as
// `sdy.sharding_rule`, printed exactly as Shardy prints it, so the registry
// can be inspected and tested against Shardy's own lit tests.
//
//   %0 = stablehlo.add %a, %b : tensor<8x4xf32>
//   ->
//   %0 = stablehlo.add %a, %b {sdy.sharding_rule =
//          #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>} : tensor<8x4xf32>
#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"
#include "rules/OpShardingRuleRegistry.h"

namespace autopart {
namespace {

bool populateRules(Module &m, const PassOptions &opts, Diagnostics &diags) {
  RuleOptions ro;
  ro.conservativePropagation = opts.getBool("conservative-propagation", false);
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops) {
    if (m.hasAttr(op, "sdy.sharding_rule")) continue;
    std::optional<OpShardingRule> r = getOpShardingRule(m, op, ro, &diags);
    if (r) m.setAttr(op, "sdy.sharding_rule", m.attrs.shardingRule(std::move(*r)));
  }
  return true;
}

PassRegistration reg("sdy-populate-op-sharding-rules",
                     "Attach each op's sharding rule as sdy.sharding_rule", populateRules,
                     {sharedPassOption("conservative-propagation")});

}  // namespace
}  // namespace autopart
