// The call graph of a module's functions, for the passes that walk calls
// callees first (flatten-call-graph, pre-order-funcs).
//
//   @main calls @foo and @bar, @foo calls @bar
//   callGraphPostOrder -> [@bar, @foo, @main]
//   reachableFunctions(@main) -> [@main, @foo, @bar]
#pragma once

#include <vector>

#include "ir/Module.h"

namespace autopart {

// The `func.call` ops nested in `root`, in program order.
std::vector<OpId> callsIn(const Module &m, OpId root);

// Every function once, each after the functions it calls (depth first from
// the functions in module order, callees in call order); a cycle is cut
// where it closes.
std::vector<OpId> callGraphPostOrder(const Module &m);

// `root` and every function it calls, directly or not, each once, a caller
// before the functions it calls first (depth first, callees in call order).
std::vector<OpId> reachableFunctions(const Module &m, OpId root);

}  // namespace autopart
