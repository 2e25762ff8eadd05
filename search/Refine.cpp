#include "search/Refine.h"

#include "search/RefineMoves.h"
#include "search/RefineUnits.h"

namespace autopart {

RefineResult refinePlan(const ActionSpace &space, const DeviceParams &device, const ShardingVector &start,
                        const PlanCost &startCost, std::chrono::steady_clock::time_point deadline,
                        const RefineOptions &options) {
  RefineResult r;
  r.shardings = start;
  r.cost = startCost;
  if (!startCost.feasible || space.axes.empty()) return r;
  RefineUnits units = buildRefineUnits(space);
  RefineWalk walk(space, device, units, start, deadline, r);
  if (!walk.startFeasible()) return r;
  walk.descend();
  if (options.annealSteps > 0 && !r.timedOut) {
    walk.anneal(options.annealSteps, options.seed);
    walk.descend();
  }
  if (r.moves == 0 && !walk.cost().betterThan(startCost)) return r;
  r.cost = walk.cost();
  const ShardingVector &plan = walk.plan();
  for (size_t v = 0; v < plan.size(); ++v)
    if (v >= start.size() ? plan[v].has_value() : plan[v] != start[v]) ++r.changedValues;
  r.shardings = walk.takePlan();
  return r;
}

}  // namespace autopart
