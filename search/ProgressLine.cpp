#include "search/ProgressLine.h"

#include <algorithm>
#include <cstdio>

namespace autopart {

namespace {

constexpr int kBarWidth = 24;

}  // namespace

std::string formatProgressLine(const SearchProgress &p, double budgetSeconds) {
  std::string out = "mcts ";
  char buf[160];
  if (budgetSeconds > 0) {
    int filled = int(std::clamp(p.seconds / budgetSeconds, 0.0, 1.0) * kBarWidth + 0.5);
    out += "[" + std::string(size_t(filled), '#') + std::string(size_t(kBarWidth - filled), '-') + "] ";
    std::snprintf(buf, sizeof buf, "%.1f/%.0f s", p.seconds, budgetSeconds);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f s", p.seconds);
  }
  out += buf;
  std::snprintf(buf, sizeof buf, "  %s  %lld it  best %.3f ms, %.2f GiB%s", p.phase.c_str(),
                (long long)p.iterations, p.bestStepSeconds * 1e3, double(p.bestPeakBytes) / (1024.0 * 1024 * 1024),
                p.bestFits ? "" : " (over memory)");
  return out + buf;
}

}  // namespace autopart
