// Data-flow edges: where a value flows through an op without a sharding rule
// (a while loop's carried values, a case's branch results, an optimization
// barrier, the body of a manual computation), Shardy puts an
// `sdy.data_flow_edge` on the value the flow ends at and propagates through
// the edge as an identity from all its sources. `-sdy-add-data-flow-edges`
// inserts them, `-sdy-sink-data-flow-edges` moves their shardings back onto
// the ops and removes them:
//
//   %0:2 = stablehlo.while(%iterArg = %arg0, ...) {sdy.sharding = S}
//   ->  (add)
//   %0:2 = stablehlo.while(%iterArg = %arg0, ...) {sdy.sharding = S}
//   %1 = sdy.data_flow_edge %0#0 sharding=S[0] : tensor<32x96xf32>
//   (every other use of %0#0 now reads %1)
//
// As in Shardy, the op keeps its `sdy.sharding` beside the edges: the edges
// own the shardings while they exist (propagation reads and writes them) and
// sinking overwrites the op's list with theirs. Once any edge of an op's
// results (or of a computation's body arguments) carried a sharding, the
// whole list is written: an edge without one leaves its slot fully open on
// that mesh (a named computation without in/out shardings gets them).
//
// A manual computation's body sees local shardings (without its manual
// axes); its edges hold the local form on block arguments and the global form
// on results. `ManualAxesView` converts between the two.
#pragma once

#include <string>
#include <vector>

#include "ir/AxisList.h"
#include "ir/Module.h"

namespace autopart {

// The manual axes a local sharding of a manual computation lacks, taken from
// the global sharding it came from: per dimension the leading manual axes,
// and the explicitly replicated manual axes.
struct ManualAxesView {
  std::vector<AxisList> dimPrefix;
  AxisList replicated;

  static ManualAxesView of(const TensorSharding &global, const std::vector<std::string> &manualAxes);
  TensorSharding toGlobal(TensorSharding local) const;
  TensorSharding toLocal(TensorSharding global) const;
};

// Inserts the edges; returns how many.
size_t addDataFlowEdges(Module &m);
// Moves every edge's sharding onto its owner and erases the edges.
size_t sinkDataFlowEdges(Module &m);

}  // namespace autopart
