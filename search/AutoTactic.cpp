#include "search/AutoTactic.h"

#include <unistd.h>

#include "analysis/ArgumentRoles.h"
#include "sim/Hardware.h"

namespace autopart {

AutoTacticFn makeAutoTactic(AutoTacticOptions options) {
  return [options](const ScheduleContext &ctx, const Tactic &tactic, ShardingVector &state,
                   Diagnostics &diags) -> std::optional<nlohmann::json> {
    std::optional<Hardware> hw = loadHardware(options.device, diags);
    if (!hw) return std::nullopt;
    SearchProblem problem{ctx.m, ctx.func, ctx.mesh, ctx.meshName, ctx.names, hardwareDeviceParams(*hw, ctx.mesh),
                          state, tactic.axes};
    SearchBudget budget = options.budget;
    budget.progress = isatty(2) != 0;  // the progress line, on a terminal only
    SearchOutcome out = runSearchMethod(*findSearchMethod("mcts"), problem, budget);
    if (!out.found) {
      diags.error("tactic '" + tactic.spelling + "': " + out.note);
      return std::nullopt;
    }
    std::string axes;
    for (const std::string &a : tactic.axes) axes += (axes.empty() ? "" : ",") + a;
    nlohmann::json entry = {{"tactic", tactic.spelling}, {"kind", tacticKindName(tactic.kind)},
                            {"axis", axes}, {"sharded", nlohmann::json::array()},
                            {"skipped", nlohmann::json::array()}, {"actions", out.actions},
                            {"step_seconds", out.cost.stepSeconds}, {"peak_bytes", out.cost.peakBytes},
                            {"fits", out.cost.feasible}, {"search_seconds", out.seconds}};
    // Report what the search added to the arguments; count every dimension.
    std::vector<ArgumentInfo> infos = classifyArguments(ctx.m, ctx.func);
    std::span<const ValueId> args = FuncView{ctx.m, ctx.func}.args();
    std::vector<int64_t> argIndex(state.size(), -1);
    for (size_t i = 0; i < args.size(); ++i) argIndex[args[i]] = int64_t(i);
    int64_t dims = 0;
    for (size_t v = 0; v < state.size(); ++v) {
      const std::optional<TensorSharding> &before = state[v], &after = out.shardings[v];
      if (!after) continue;
      for (size_t d = 0; d < after->dims.size(); ++d) {
        size_t had = before && d < before->dims.size() ? before->dims[d].axes.size() : 0;
        if (after->dims[d].axes.size() <= had) continue;
        ++dims;
        if (argIndex[v] >= 0) entry["sharded"].push_back({{"argument", infos[size_t(argIndex[v])].name}, {"dim", d}});
      }
    }
    entry["dims_sharded"] = dims;
    entry["dims_skipped"] = 0;
    if (!out.cost.feasible) entry["skipped"].push_back("no plan found fits in device memory");
    state = std::move(out.shardings);
    return entry;
  };
}

}  // namespace autopart
