#include "sim/StepSchedule.h"

#include <algorithm>

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

ScheduleResult scheduleStep(std::span<const double> positionSeconds, std::vector<ScheduledCollective> &events,
                            const CombineThresholds &combine, std::vector<double> &endTime, bool synchronous) {
  std::stable_sort(events.begin(), events.end(), [](const ScheduledCollective &a, const ScheduledCollective &b) {
    return a.deadline != b.deadline ? a.deadline < b.deadline : a.ready < b.ready;
  });
  ScheduleResult r;
  size_t numPositions = positionSeconds.size();
  endTime.assign(numPositions, 0);
  double now = 0, commFree = 0;
  struct Group {
    bool open = false;
    CollectiveKind kind = CollectiveKind::AllReduce;
    const AxisList *axes = nullptr;
    double bytes = 0, start = 0;
  } group;

  auto schedule = [&](const ScheduledCollective &e) {
    if (e.seconds <= 0) return;
    double ready = e.ready < 0 ? 0 : e.ready < int64_t(numPositions) ? endTime[size_t(e.ready)] : now;
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
      group = {true, e.kind, e.axes, e.bytes, start};
    }
    double end = start + seconds;
    commFree = end;
    r.commSeconds += seconds;
    double exposed = std::max(0.0, end - now);
    now += exposed;
    r.exposedSeconds += exposed;
    r.exposedByKind[size_t(e.kind)] += exposed;
    r.hiddenByKind[size_t(e.kind)] += seconds - exposed;
  };

  size_t j = 0;
  for (size_t p = 0; p < numPositions; ++p) {
    while (j < events.size() && events[j].deadline <= int64_t(p)) schedule(events[j++]);
    now += positionSeconds[p];
    r.computeSeconds += positionSeconds[p];
    endTime[p] = now;
  }
  while (j < events.size()) schedule(events[j++]);
  r.stepSeconds = std::max(now, commFree);
  return r;
}

}  // namespace autopart
