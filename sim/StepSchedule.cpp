#include "sim/StepSchedule.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace autopart {

namespace {

double threshold(CollectiveKind kind, const CombineThresholds &c) {
  switch (kind) {
  case CollectiveKind::AllReduce: return c.allReduce;
  case CollectiveKind::AllGather: return c.allGather;
  case CollectiveKind::ReduceScatter: return c.reduceScatter;
  default: return 0;
  }
}

}  // namespace

namespace {

class PrefixClock final : public ComputeClock {
public:
  explicit PrefixClock(const std::vector<double> &prefix) : prefix_(prefix) {}
  double before(int64_t p) const override { return prefix_[size_t(p)]; }
  int64_t size() const override { return int64_t(prefix_.size()) - 1; }

private:
  const std::vector<double> &prefix_;
};

}  // namespace

ScheduleResult scheduleStep(std::span<const double> positionSeconds, std::vector<ScheduledCollective> &events,
                            const CombineThresholds &combine, std::vector<double> &prefix, bool synchronous) {
  prefix.assign(positionSeconds.size() + 1, 0);
  for (size_t p = 0; p < positionSeconds.size(); ++p) prefix[p + 1] = prefix[p] + positionSeconds[p];
  return scheduleOnClock(PrefixClock(prefix), events, combine, synchronous);
}

ScheduleResult scheduleOnClock(const ComputeClock &clock, std::vector<ScheduledCollective> &events,
                               const CombineThresholds &combine, bool synchronous) {
  std::sort(events.begin(), events.end(), [](const ScheduledCollective &a, const ScheduledCollective &b) {
    if (a.deadline != b.deadline) return a.deadline < b.deadline;
    return a.ready != b.ready ? a.ready < b.ready : a.order < b.order;
  });
  ScheduleResult r;
  int64_t end = clock.size();
  // The compute stream only ever waits at a deadline, before that position's
  // kernel: the time a kernel ends is the clock plus the waits at deadlines
  // up to its position.
  double stall = 0;
  std::vector<std::pair<int64_t, double>> stalls;  // (deadline, total wait so far), ascending
  auto stallUpTo = [&](int64_t p) {
    auto it = std::upper_bound(stalls.begin(), stalls.end(), p,
                               [](int64_t x, const std::pair<int64_t, double> &s) { return x < s.first; });
    return it == stalls.begin() ? 0.0 : std::prev(it)->second;
  };
  double commFree = 0;
  struct Group {
    bool open = false;
    CollectiveKind kind = CollectiveKind::AllReduce;
    const AxisList *axes = nullptr;
    double bytes = 0;
  } group;

  for (const ScheduledCollective &e : events) {
    if (e.seconds <= 0) continue;
    int64_t deadline = std::clamp<int64_t>(e.deadline, 0, end);
    double now = clock.before(deadline) + stall;
    double ready = 0;
    if (e.ready >= 0 && e.ready < deadline) ready = clock.before(e.ready + 1) + stallUpTo(e.ready);
    else if (e.ready >= deadline) ready = now;
    ready = std::min(ready, now);
    if (synchronous) ready = now;
    double seconds = e.seconds, start;
    double limit = threshold(e.kind, combine);
    // Asynchronous: a collective that becomes ready while the group before it
    // still occupies the stream would wait for it anyway, so the combiner's
    // merged collective costs no more and saves its latency. Synchronous:
    // only back-to-back collectives, with no kernel between them, are one call.
    bool joins = group.open && group.kind == e.kind && e.axes && group.axes && *group.axes == *e.axes &&
                 limit > 0 && group.bytes + e.bytes <= limit &&
                 (synchronous ? commFree == now : ready <= commFree);
    if (joins) {
      seconds = std::max(0.0, seconds - e.latencySeconds);
      start = commFree;
      group.bytes += e.bytes;
      ++r.combined;
    } else {
      start = std::max(ready, commFree);
      group = {true, e.kind, e.axes, e.bytes};
    }
    double finish = start + seconds;
    commFree = finish;
    r.commSeconds += seconds;
    double exposed = std::max(0.0, finish - now);
    if (exposed > 0) {
      stall += exposed;
      if (!stalls.empty() && stalls.back().first == deadline) stalls.back().second = stall;
      else stalls.emplace_back(deadline, stall);
    }
    r.exposedSeconds += exposed;
    r.exposedByKind[size_t(e.kind)] += exposed;
    // finish - now loses bits against seconds: a collective exposed whole
    // would otherwise be hidden by -1e-20 s (printed "-0.000 us hidden").
    double hidden = seconds - exposed;
    r.hiddenByKind[size_t(e.kind)] += std::abs(hidden) < 1e-12 ? 0 : hidden;
  }
  r.computeSeconds = clock.before(end);
  r.stepSeconds = std::max(r.computeSeconds + stall, commFree);
  return r;
}

}  // namespace autopart
