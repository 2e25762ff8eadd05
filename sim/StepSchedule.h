// Step time as XLA's latency-hiding scheduler achieves it: kernels run one
// after another on the compute stream, collectives run asynchronously on one
// communication stream, each started as soon as the value it moves exists
// (and the stream is free) and awaited just before the kernel that needs it.
// Communication is hidden while the compute stream has other kernels to run
// and exposed when a kernel must wait. XLA's combiners merge independent
// collectives of one kind over the same devices up to a byte threshold: a
// collective that becomes ready while the stream is still busy with the
// group before it would wait anyway, so it joins the group and pays no
// latency of its own.
//
// Positions are the simulator's sites in program order; a kernel runs at its
// root's position. Example (seconds): kernels 3, 3 at positions 0, 1; an
// all-gather of 4 ready at the start, needed at position 1:
//
//   compute  [k0 0..3][wait 3..4][k1 4..7]
//   comm     [all-gather 0..4]
//   -> step 7, communication 4 of which 1 exposed, 3 hidden.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ir/AxisList.h"
#include "sim/Collective.h"

namespace autopart {

struct ScheduledCollective {
  CollectiveKind kind = CollectiveKind::AllReduce;
  const AxisList *axes = nullptr;  // for combining: same kind over the same axes
  double seconds = 0;              // alone, all executions of its site
  double latencySeconds = 0;       // the part a combined collective does not pay
  double bytes = 0;
  int64_t ready = -1;     // position whose kernel produces the value (-1: step start)
  int64_t deadline = 0;   // position whose kernel needs it (numPositions: step end)
  // Last tie-break of the stream order, so the schedule does not depend on
  // the order events were listed in (the simulator: site, then collective).
  uint64_t order = 0;
};

struct CombineThresholds {
  double allReduce = 0, allGather = 0, reduceScatter = 0;  // bytes; 0: never combine
};

constexpr size_t kNumCollectiveKinds = 7;

struct ScheduleResult {
  double stepSeconds = 0;
  double computeSeconds = 0;  // sum of kernel times
  double commSeconds = 0;     // sum of collective times after combining
  double exposedSeconds = 0;  // communication the compute stream waited for
  std::array<double, kNumCollectiveKinds> exposedByKind{}, hiddenByKind{};
  int combined = 0;  // collectives that joined a combined group
};

// The compute stream's clock without stalls: sum of the kernel times at
// positions [0, p). The simulator keeps it in a Fenwick tree, so a schedule
// costs O(collectives · log positions), not O(positions).
class ComputeClock {
public:
  virtual ~ComputeClock() = default;
  virtual double before(int64_t position) const = 0;  // position in [0, size]
  virtual int64_t size() const = 0;
};

// The schedule over `clock`; `events` is sorted in place by deadline.
ScheduleResult scheduleOnClock(const ComputeClock &clock, std::vector<ScheduledCollective> &events,
                               const CombineThresholds &combine, bool synchronous = false);

// The same over explicit kernel times: `positionSeconds[p]` is the time of
// the kernel at position p (0: none); `scratch` holds their prefix sums. `synchronous`: the compute stream
// blocks on each collective where it is needed, as a framework that issues
// them synchronously runs (Megatron-LM's tensor-parallel all-reduces and its
// gradient all-reduce after the backward pass); consecutive collectives of
// one kind still combine.
ScheduleResult scheduleStep(std::span<const double> positionSeconds, std::vector<ScheduledCollective> &events,
                            const CombineThresholds &combine, std::vector<double> &scratch,
                            bool synchronous = false);

}  // namespace autopart
