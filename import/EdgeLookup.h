// The `sdy.data_flow_edge` a value belongs to, as Shardy's
// DataFlowEdgeOp::lookup: the edge op itself, the edge reading an owner (a
// while/case/barrier/computation result, a computation's block argument),
// or for a while loop's block argument the edge of the matching result.
//
//   %0:2 = stablehlo.while(%iterArg = %arg0, ...) ... do { ... %iterArg ... }
//   %1 = sdy.data_flow_edge %0#0
//   dataFlowEdgeOf(%iterArg) == dataFlowEdgeOf(%0#0) == dataFlowEdgeOf(%1) == op of %1
#pragma once

#include "canonicalize/Rewriter.h"
#include "ir/Module.h"

namespace autopart {

// kNone when `v` is on no data-flow edge (or its edge was not added).
OpId dataFlowEdgeOf(const Module &m, const canonicalize::Rewriter &rw, ValueId v);

}  // namespace autopart
