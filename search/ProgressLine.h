// The search's progress line on a terminal: a bar of the time budget spent,
// the phase, the tree search's iterations and the best plan so far.
//
//   formatProgressLine({.iterations = 1234, .bestStepSeconds = 0.004213,
//                       .bestPeakBytes = 32 << 30, .seconds = 15, .phase = "tree search"}, 30)
//   -> "mcts [############------------] 15.0/30 s  tree search  1234 it  best 4.213 ms, 32.00 GiB"
#pragma once

#include <string>

#include "search/Mcts.h"

namespace autopart {

// `budgetSeconds` <= 0: no bar, only the elapsed time.
std::string formatProgressLine(const SearchProgress &p, double budgetSeconds);

}  // namespace autopart
