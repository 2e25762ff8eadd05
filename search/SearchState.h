// One point of the search: the actions applied so far (in order), the
// sharding of every value they imply, and the simulator that prices it. Every
// search method walks the space through apply / undo; the simulator only
// re-evaluates the ops whose operands or results changed.
//
//   ActionSpace space = ActionSpace::build(m, func, names, mesh, "mesh", {}, base);
//   SearchState st(space, device);
//   for (uint32_t id = 0; id < space.size(); ++id)
//     if (st.legal(id)) { st.apply(id); break; }
//   PlanCost c = st.evaluate();   // step 1.8 ms, peak 3.1 GiB of 80 GiB
//   st.undo();                    // back to the base state
//
// Applying ShardName(n, axis) appends `axis` to the kept member dimension of
// every value carrying n; axes a dimension gets from the search are kept in
// mesh order after the ones it had in the base state, so the shardings are a
// function of the *set* of applied actions (the transposition key).
// Legality: the axis divides every member dimension (after what already
// splits it), no touched value already uses the axis, no touched value is
// fixed by the input, and a conflict is resolved before its name is sharded.
// Members inside an sdy.manual_computation that made the axis manual are
// skipped (analysis/ManualAxes.h), not shardable and not an obstacle.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "search/Action.h"
#include "sim/Simulator.h"

namespace autopart {

struct PlanCost {
  double stepSeconds = 0;
  double computeSeconds = 0;
  double commSeconds = 0;
  int64_t peakBytes = 0;
  bool feasible = true;  // peak memory within the device's HBM

  // The order every method optimises: feasible before infeasible, then the
  // faster step, then the smaller peak; infeasible ones by peak memory.
  bool betterThan(const PlanCost &o) const;
};

// Prices the shardings `sim` holds: its (incremental) step time, and the peak
// memory of a full liveness walk with each collective's buffer live while
// its op runs. `scratch` is per op and left zeroed. Shared by SearchState and
// the per-value refinement (search/Refine.h).
// The simulator of the space's base state, as the search prices plans (each
// result of the entry function takes its returned value's sharding).
Simulator simulatorFor(const ActionSpace &space, const DeviceParams &device);

PlanCost pricePlan(Simulator &sim, const Module &m, OpId func, double hbmCapacity, std::vector<int64_t> &scratch);

class SearchState {
public:
  SearchState(const ActionSpace &space, const DeviceParams &device);

  bool legal(uint32_t id) const;
  void apply(uint32_t id);
  void undo();   // the last applied action
  void reset();  // back to the base state
  // Applies `ids` in order, skipping illegal ones; returns how many applied.
  size_t applyAll(const std::vector<uint32_t> &ids);

  PlanCost evaluate();
  // The legal action that, applied alone to the current state, improves on
  // `than` the most, and the cost it reaches; action -1 when none improves.
  // The state is unchanged afterwards. `except` is never picked; past the
  // deadline the scan stops with the best found so far.
  //   greedy descent:  while ((i = st.bestImprovingAction(c, t)).action >= 0)
  //                      { st.apply(i.action); c = i.cost; }
  struct Improvement {
    int64_t action = -1;
    PlanCost cost;
  };
  Improvement bestImprovingAction(const PlanCost &than, std::chrono::steady_clock::time_point deadline,
                                  int64_t except = -1);
  const std::vector<uint32_t> &path() const { return path_; }
  // The applied set, sorted: equal keys mean equal shardings.
  std::vector<uint32_t> key() const;
  const ShardingVector &shardings() const { return current_; }
  const ActionSpace &space() const { return *space_; }
  size_t evaluations() const { return evaluations_; }
  // Argument dimensions the applied actions shard: (argument index, dim).
  std::vector<std::pair<size_t, uint32_t>> shardedArgumentDims() const;

private:
  // The value's dimension that carries name `n` (conflicts resolved).
  template <typename Fn>
  void forEachMember(const Action &a, Fn &&fn) const;
  bool canAdd(ValueId v, uint32_t dim, const SearchAxis &axis) const;
  void addAxis(ValueId v, uint32_t dim, const SearchAxis &axis);
  void removeAxis(ValueId v, const SearchAxis &axis);

  const ActionSpace *space_;
  ShardingVector current_;
  std::vector<uint32_t> path_;
  std::vector<bool> resolved_;     // per conflict
  std::vector<int> nameAssigned_;  // per name: ShardName actions applied
  Simulator sim_;
  OpId func_;
  double hbmCapacity_;
  size_t evaluations_ = 0;
  std::vector<int64_t> transient_;  // per op, scratch for memory
};

}  // namespace autopart
