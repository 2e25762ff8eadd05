#include "propagation/ShardingPropagation.h"

#include <string>

#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"
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

}  // namespace

std::vector<PassOptionSpec> propagationOptionSpecs(PropagationPass pass) {
  std::vector<PassOptionSpec> specs = {
      sharedPassOption("keep-sharding-rules"),
      sharedPassOption("conservative-propagation"),
      {"module-dump-directory", "string", "Shardy's module dumps; accepted only empty (autopart writes none)"},
      {"debug-sharding-origins", "bool", "Shardy's debug origins; accepted only false (autopart keeps none)"},
      {"debug-edge-source-sharding", "bool", "Shardy's debug edge sources; accepted only false"},
  };
  if (pass == PropagationPass::Aggressive || pass == PropagationPass::UserPriority ||
      pass == PropagationPass::Pipeline)
    specs.push_back({"propagation-strategy", "aggressive|basic", "the factor strategy (default aggressive)"});
  if (pass == PropagationPass::UserPriority || pass == PropagationPass::Pipeline)
    specs.push_back({"run-op-priority-propagation", "bool", "each user-priority round by op priorities (default true)"});
  return specs;
}

std::optional<PropagationOptions> propagationPassOptions(const PassOptions &o, PropagationPass pass,
                                                         Diagnostics &diags) {
  const std::string name = passName(pass);
  bool hasStrategy = pass == PropagationPass::Aggressive || pass == PropagationPass::UserPriority ||
                     pass == PropagationPass::Pipeline;
  bool hasOpPriorityToggle = pass == PropagationPass::UserPriority || pass == PropagationPass::Pipeline;
  if (!checkPassOptions(PassInfo{name, "", nullptr, propagationOptionSpecs(pass)}, o, diags)) return std::nullopt;
  bool ok = true;
  for (const auto &[key, value] : o.values) {
    if (key.starts_with("debug-") && o.getBool(key, false)) {
      diags.error(name + ": option '" + key + "' is not supported by autopart-opt (no debug origins are kept)");
      ok = false;
    } else if (key == "module-dump-directory" && !value.empty()) {
      diags.error(name + ": option 'module-dump-directory' is not supported by autopart-opt (no module dumps)");
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
