// The search's progress line: the bar follows the budget spent.
#include <gtest/gtest.h>

#include "search/ProgressLine.h"

namespace autopart {
namespace {

SearchProgress at(double seconds, const char *phase) {
  SearchProgress p;
  p.iterations = 1234;
  p.bestStepSeconds = 0.004213;
  p.bestPeakBytes = int64_t(32) << 30;
  p.seconds = seconds;
  p.phase = phase;
  return p;
}

TEST(ProgressLine, BarFollowsTheBudget) {
  EXPECT_EQ(formatProgressLine(at(15, "tree search"), 30),
            "mcts [############------------] 15.0/30 s  tree search  1234 it  best 4.213 ms, 32.00 GiB");
  EXPECT_EQ(formatProgressLine(at(0, "tree search"), 30).substr(0, 31), "mcts [------------------------]");
  // Past the budget (the refinement's last tenth) the bar stays full.
  EXPECT_EQ(formatProgressLine(at(45, "refining"), 30).substr(0, 31), "mcts [########################]");
}

TEST(ProgressLine, OverMemoryAndNoBudget) {
  SearchProgress p = at(2.5, "refining");
  p.bestFits = false;
  EXPECT_EQ(formatProgressLine(p, 0), "mcts 2.5 s  refining  1234 it  best 4.213 ms, 32.00 GiB (over memory)");
}

}  // namespace
}  // namespace autopart
