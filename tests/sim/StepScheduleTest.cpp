// The two-stream step schedule (sim/StepSchedule.h) on hand-made positions
// and collectives, times in seconds: kernels run one after another,
// collectives one after another on the communication stream from the moment
// their value exists, and only the time a kernel waits for one is exposed.
#include "sim/StepSchedule.h"

#include <gtest/gtest.h>

#include "sim/CostModel.h"

namespace autopart {

namespace {

size_t idx(CollectiveKind k) { return size_t(k); }

ScheduledCollective collective(CollectiveKind kind, double seconds, int64_t ready, int64_t deadline,
                               const AxisList *axes = nullptr, double latency = 0, double bytes = 0) {
  ScheduledCollective e;
  e.kind = kind;
  e.axes = axes;
  e.seconds = seconds;
  e.latencySeconds = latency;
  e.bytes = bytes;
  e.ready = ready;
  e.deadline = deadline;
  return e;
}

ScheduleResult run(std::vector<double> positions, std::vector<ScheduledCollective> events,
                   CombineThresholds combine = {}) {
  std::vector<double> scratch;
  return scheduleStep(positions, events, combine, scratch);
}

// The header's example.
TEST(StepSchedule, AllGatherHiddenUnderTheKernelBeforeItsUse) {
  // compute [k0 0..3][wait 3..4][k1 4..7]; comm [all-gather 0..4]
  ScheduleResult r = run({3, 3}, {collective(CollectiveKind::AllGather, 4, -1, 1)});
  EXPECT_DOUBLE_EQ(r.stepSeconds, 7);     // 3 + 1 + 3
  EXPECT_DOUBLE_EQ(r.computeSeconds, 6);  // 3 + 3
  EXPECT_DOUBLE_EQ(r.commSeconds, 4);
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 1);  // 4 - 3
  EXPECT_DOUBLE_EQ(r.exposedByKind[idx(CollectiveKind::AllGather)], 1);
  EXPECT_DOUBLE_EQ(r.hiddenByKind[idx(CollectiveKind::AllGather)], 3);
  EXPECT_EQ(r.combined, 0);
}

TEST(StepSchedule, NothingToHideUnderIsFullyExposed) {
  // Needed by the first kernel: compute waits 0..4, then k0 4..6.
  ScheduleResult r = run({2}, {collective(CollectiveKind::AllReduce, 4, -1, 0)});
  EXPECT_DOUBLE_EQ(r.stepSeconds, 6);  // 4 + 2
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 4);
  EXPECT_DOUBLE_EQ(r.hiddenByKind[idx(CollectiveKind::AllReduce)], 0);

  // Produced by k0 and needed by k1: it starts when k0 ends (2) and k1
  // waits for all of it: [k0 0..2][wait 2..3][k1 3..5].
  r = run({2, 2}, {collective(CollectiveKind::AllReduce, 1, 0, 1)});
  EXPECT_DOUBLE_EQ(r.stepSeconds, 5);
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 1);
}

TEST(StepSchedule, CollectivesSerialiseOnTheOneCommunicationStream) {
  // Two all-reduces of 3, both ready at the start, both needed by k1:
  // comm [ar 0..3][ar 3..6]; compute [k0 0..4][wait 4..6][k1 6..7].
  // (On two streams both would end at 3, hidden under k0: step 5.)
  AxisList x = AxisList{AxisRef{"x"}}, y = AxisList{AxisRef{"y"}};
  ScheduleResult r = run({4, 1}, {collective(CollectiveKind::AllReduce, 3, -1, 1, &x),
                                   collective(CollectiveKind::AllReduce, 3, -1, 1, &y)});
  EXPECT_DOUBLE_EQ(r.stepSeconds, 7);      // 4 + 2 + 1
  EXPECT_DOUBLE_EQ(r.commSeconds, 6);      // 3 + 3
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 2);   // the second ends at 6, k0 at 4
  EXPECT_DOUBLE_EQ(r.hiddenByKind[idx(CollectiveKind::AllReduce)], 4);  // 3 + 1
  EXPECT_EQ(r.combined, 0);  // different axes never combine
}

TEST(StepSchedule, CombinedAllReducePaysOneLatency) {
  // Two all-reduces over "x" of 100 bytes each, 3 s of which 1 s latency,
  // ready at the start, needed by k1 (k0 takes 4).
  AxisList x = AxisList{AxisRef{"x"}};
  std::vector<ScheduledCollective> events = {
      collective(CollectiveKind::AllReduce, 3, -1, 1, &x, 1, 100),
      collective(CollectiveKind::AllReduce, 3, -1, 1, &x, 1, 100)};

  // Threshold 256 >= 200: one call. The second runs 3..5 (3 - 1 latency);
  // [k0 0..4][wait 4..5][k1 5..6].
  CombineThresholds under;
  under.allReduce = 256;
  ScheduleResult r = run({4, 1}, events, under);
  EXPECT_EQ(r.combined, 1);
  EXPECT_DOUBLE_EQ(r.commSeconds, 5);     // 3 + 2
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 1);  // 5 - 4
  EXPECT_DOUBLE_EQ(r.stepSeconds, 6);     // 4 + 1 + 1

  // Threshold 150 < 200: two calls, 0..3 and 3..6; [k0 0..4][wait 4..6][k1].
  CombineThresholds over;
  over.allReduce = 150;
  r = run({4, 1}, events, over);
  EXPECT_EQ(r.combined, 0);
  EXPECT_DOUBLE_EQ(r.commSeconds, 6);
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 2);  // 6 - 4
  EXPECT_DOUBLE_EQ(r.stepSeconds, 7);     // 4 + 2 + 1

  // Only the all-reduce threshold counts for all-reduces.
  CombineThresholds otherKinds;
  otherKinds.allGather = otherKinds.reduceScatter = 1e9;
  EXPECT_EQ(run({4, 1}, events, otherKinds).combined, 0);
}

TEST(StepSchedule, ACollectiveProducedLateCannotJoinTheGroup) {
  // The second all-reduce's value comes from k0 (ready at 4), after the
  // first started (0): it cannot have been issued with it. It runs 4..7:
  // [k0 0..4][wait 4..7][k1 7..8].
  AxisList x = AxisList{AxisRef{"x"}};
  CombineThresholds t;
  t.allReduce = 1e9;
  ScheduleResult r = run({4, 1}, {collective(CollectiveKind::AllReduce, 3, -1, 1, &x, 1, 100),
                                  collective(CollectiveKind::AllReduce, 3, 0, 1, &x, 1, 100)},
                         t);
  EXPECT_EQ(r.combined, 0);
  EXPECT_DOUBLE_EQ(r.commSeconds, 6);
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 3);  // 7 - 4
  EXPECT_DOUBLE_EQ(r.stepSeconds, 8);
}

TEST(StepSchedule, CollectiveNeededAtTheStepEndOverlapsLaterKernels) {
  // A gradient reduce-scatter produced by k0, needed by nothing in the step
  // (deadline = number of positions): it runs 2..5 under k1 (2..4), and the
  // step ends when it does: 1 exposed, 2 hidden.
  ScheduleResult r = run({2, 2}, {collective(CollectiveKind::ReduceScatter, 3, 0, 2)});
  EXPECT_DOUBLE_EQ(r.stepSeconds, 5);
  EXPECT_DOUBLE_EQ(r.computeSeconds, 4);
  EXPECT_DOUBLE_EQ(r.exposedByKind[idx(CollectiveKind::ReduceScatter)], 1);  // 5 - 4
  EXPECT_DOUBLE_EQ(r.hiddenByKind[idx(CollectiveKind::ReduceScatter)], 2);   // 3 - 1

  // Produced by the last kernel: nothing left to hide under.
  r = run({2, 2}, {collective(CollectiveKind::ReduceScatter, 3, 1, 2)});
  EXPECT_DOUBLE_EQ(r.stepSeconds, 7);  // 4 + 3
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 3);
}

TEST(StepSchedule, EventsAreTakenByDeadlineWhateverTheirOrder) {
  // Listed late-deadline first: the one k1 needs still runs first (0..1),
  // the step-end one after it (1..3) under k1 (2..4): nothing exposed.
  ScheduleResult r = run({2, 2}, {collective(CollectiveKind::AllGather, 2, -1, 2),
                                  collective(CollectiveKind::AllGather, 1, -1, 1)});
  EXPECT_DOUBLE_EQ(r.exposedSeconds, 0);
  EXPECT_DOUBLE_EQ(r.stepSeconds, 4);
  EXPECT_DOUBLE_EQ(r.commSeconds, 3);
}

}  // namespace
}  // namespace autopart
