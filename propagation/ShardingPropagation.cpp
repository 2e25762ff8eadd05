#include "propagation/ShardingPropagation.h"

#include <set>
#include <string>

#include "ir/Pass.h"
#include "propagation/UserPriorityPropagation.h"

namespace autopart {

namespace {

const char *passName(PropagationPass pass) {
  switch (pass) {
  case PropagationPass::Basic: return "sdy-basic-propagate";
  case PropagationPass::Aggressive: return "sdy-aggressive-propagate";
  case PropagationPass::OpPriority: return "sdy-op-priority-propagate";
  case PropagationPass::UserPriority: return "sdy-user-priority-propagate";
  case PropagationPass::Pipeline: return "sdy-propagation-pipeline";
  }
  return "";
}

bool isBool(const std::string &v) { return v.empty() || v == "true" || v == "false" || v == "1" || v == "0"; }

}  // namespace

std::optional<PropagationOptions> propagationPassOptions(const PassOptions &o, PropagationPass pass,
                                                         Diagnostics &diags) {
  const std::string name = passName(pass);
  bool hasStrategy = pass == PropagationPass::Aggressive || pass == PropagationPass::UserPriority ||
                     pass == PropagationPass::Pipeline;
  bool hasOpPriorityToggle = pass == PropagationPass::UserPriority || pass == PropagationPass::Pipeline;
  std::set<std::string> bools = {"keep-sharding-rules", "conservative-propagation", "debug-sharding-origins",
                                 "debug-edge-source-sharding"};
  if (hasOpPriorityToggle) bools.insert("run-op-priority-propagation");
  bool ok = true;
  for (const auto &[key, value] : o.values) {
    if (bools.count(key)) {
      if (!isBool(value)) {
        diags.error(name + ": option '" + key + "' takes true or false, not '" + value + "'");
        ok = false;
      } else if (key.starts_with("debug-") && o.getBool(key, false)) {
        diags.error(name + ": option '" + key + "' is not supported by autopart-opt (no debug origins are kept)");
        ok = false;
      }
    } else if (key == "module-dump-directory") {
      if (!value.empty()) {
        diags.error(name + ": option 'module-dump-directory' is not supported by autopart-opt (no module dumps)");
        ok = false;
      }
    } else if (key == "propagation-strategy" && hasStrategy) {
      if (value != "aggressive" && value != "basic") {
        diags.error(name + ": option 'propagation-strategy' must be 'aggressive' or 'basic', not '" + value + "'");
        ok = false;
      }
    } else {
      diags.error(name + ": unknown option '" + key + "'");
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  PropagationOptions options;
  options.conservative = o.getBool("conservative-propagation", false);
  options.keepShardingRules = o.getBool("keep-sharding-rules", false);
  options.strategy = pass == PropagationPass::Basic ? FactorStrategy::Basic : FactorStrategy::Aggressive;
  if (hasStrategy && o.getString("propagation-strategy", "aggressive") == "basic")
    options.strategy = FactorStrategy::Basic;
  options.userPriorities = pass == PropagationPass::UserPriority || pass == PropagationPass::Pipeline;
  options.opPriorities = pass == PropagationPass::OpPriority ||
                         (hasOpPriorityToggle && o.getBool("run-op-priority-propagation", true));
  return options;
}

bool propagateShardings(Module &m, const PropagationOptions &options, Diagnostics &diags,
                        PropagationStats *stats) {
  if (options.userPriorities) return UserPriorityPropagation(m, options, diags).run(stats);
  if (options.opPriorities) return OpPriorityPropagation(m, options, diags).run(stats);
  return BasicPropagation(m, options, diags).run(stats);
}

}  // namespace autopart
