// The moves of the per-value refinement (search/Refine.h) on one plan: a
// class move, a window move, the coordinate descent over both and the
// annealing walk. One object holds what every move reads and writes (the
// plan, the simulator pricing it incrementally, the cost, the counters), so
// each kind of move reads on its own and refinePlan only sequences them.
//
//   RefineUnits units = buildRefineUnits(space);
//   RefineWalk walk(space, device, units, start, deadline, result);
//   if (walk.startFeasible()) {
//     walk.descend();                   // class {conv#3 unit}: replicated
//                                       //   -> [{"data"}, {}, {}, {}], ...
//     walk.anneal(50000, seed);         // uphill moves too, best plan kept
//     walk.descend();
//   }
//   walk.plan(), walk.cost()            // step 1.48 ms -> 1.41 ms
//
// A move is kept only when the plan fits in memory and is better by
// PlanCost::betterThan; a data argument is never split over fewer devices
// than the start split it (the input pipeline feeds each device its slice,
// and a replicated batch would be a free but unreal load), and a value inside
// an sdy.manual_computation never takes one of its manual axes (the move
// skips it).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "search/Refine.h"
#include "search/RefineUnits.h"
#include "search/SearchState.h"

namespace autopart {

class RefineWalk {
public:
  using Clock = std::chrono::steady_clock;

  // Counts evaluations, moves, annealing proposals and time-outs into
  // `tally`; the plan starts as `start` (resized to every value).
  RefineWalk(const ActionSpace &space, const DeviceParams &device, const RefineUnits &units,
             const ShardingVector &start, Clock::time_point deadline, RefineResult &tally);

  // Whether the start fits in memory (priced once, at construction); no move
  // is tried from a start that does not.
  bool startFeasible() const { return current_.feasible; }

  // Window moves, then class moves, in a fixed order, each kept when it
  // improves the plan; passes repeat until one improves nothing (at most
  // kMaxPasses) or the deadline passes.
  void descend();
  // `steps` random class and window moves (FlexFlow's MCMC over per-op
  // strategies): a move is kept when it is faster, or slower by d with
  // probability exp(-d / T), T cooling geometrically from kAnnealHot to
  // kAnnealCold of the step time at the start; only plans that fit are
  // entered. The walk ends on the best plan it saw. Escapes the local
  // optimum of the descent when a better plan needs several moves that are
  // each uphill. The moves depend only on `seed`.
  void anneal(int64_t steps, uint64_t seed);

  const ShardingVector &plan() const { return plan_; }
  ShardingVector takePlan() { return std::move(plan_); }
  const PlanCost &cost() const { return current_; }

private:
  using Candidate = std::optional<TensorSharding>;
  // A name window move on one value. Add: the axis onto the name's
  // dimension of a value without it; Remove: off it; Move: from another
  // dimension of the value onto the name's.
  enum class WindowMove { Add, Remove, Move };
  using Change = std::pair<ValueId, Candidate>;

  bool allowed(ValueId v, const Candidate &s) const;
  bool classAllows(const RefineClass &c, const Candidate &s) const;
  void applyCandidate(const RefineClass &c, const Candidate &s);
  void restore(const RefineClass &c);
  // Prices the simulator's plan in full (memory too).
  PlanCost priceInFull();

  // The sharding `kind` gives `d.value`, or nullopt when the move does not
  // apply to it (or would make it illegal).
  std::optional<Candidate> windowSharding(const DimRef &d, const SearchAxis &axis, WindowMove kind) const;
  // Tries one window move; keeps it when it improves the plan.
  bool tryWindow(const std::vector<DimRef> &members, size_t from, size_t to, const SearchAxis &axis,
                 WindowMove kind);
  // Every window of every power-of-two length (half-overlapping) of one
  // name, one axis, one kind of move, longest first.
  bool sweepWindows(const std::vector<DimRef> &members, const SearchAxis &axis, WindowMove kind);
  bool descendWindows();
  // The class's best candidate, taken when it improves the plan.
  bool moveClass(const RefineClass &c);
  bool descendClasses();

  class AnnealStream;
  // The best plan the annealing walk saw: copied only when the walk leaves
  // it, so a walk that only climbs copies nothing.
  struct AnnealBest {
    ShardingVector plan;
    PlanCost cost;
    bool atBest = true;
  };
  // A random move of one kind, as the changes it would make (none: no move).
  void proposeClassMove(AnnealStream &rng, std::vector<Change> &moved) const;
  void proposeWindowMove(AnnealStream &rng, std::vector<Change> &moved) const;
  // Prices `moved` and takes it downhill, or uphill by chance at `temp`
  // seconds, when the plan still fits.
  bool takeAnnealMove(AnnealStream &rng, std::vector<Change> &moved, double temp, AnnealBest &best);

  const ActionSpace &space_;
  const Module &m_;
  double hbmCapacity_;
  const RefineUnits &units_;
  Clock::time_point deadline_;
  RefineResult &tally_;
  // Per value: the fewest devices it may be split over (0: no bound).
  std::vector<int64_t> minShards_;
  Simulator sim_;
  std::vector<int64_t> scratch_;  // pricePlan's per-op buffer
  ShardingVector plan_;           // what sim_ holds between moves
  PlanCost current_;              // plan_'s cost
  std::vector<Change> changed_;   // tryWindow's changes, reused
};

}  // namespace autopart
