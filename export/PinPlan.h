// Pinning a plan against XLA's propagation. `annotatePlan` writes shardings
// only on ops with a sharded result, to keep the output small; an op without
// one is open to Shardy, and XLA propagates into it before partitioning. Where
// the plan kept such an op replicated on purpose (a conflict resolved the
// other way, a reduction kept whole), XLA would shard it from a neighbour and
// run a different program from the one autopart priced: on pt_bert_base
// (data=2,model=4, dp+auto) the written plan simulates at 2.00 ms, XLA's
// completion of it at 2.42 ms.
//
// This runs XLA's propagation pipeline (propagation/CompleteShardings.h) on
// a copy of the annotated program and writes a closed sharding, replicated
// where the plan says so, on every op whose completed sharding differs from
// the plan; then again until nothing differs (pins only remove sources, so
// one or two rounds suffice). The pipeline splits constants per use; a
// constant whose copies XLA shards differently is not pinned (it stays
// open, so XLA again gives each use its own copy).
//
//   %1 = stablehlo.reduce(%0 ...)                 // plan: replicated, open to XLA
//   ->
//   %1 = stablehlo.reduce(%0 ...) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
#pragma once

#include <functional>
#include <string>

#include "ir/Module.h"
#include "ir/Sharding.h"
#include "support/Diagnostics.h"

namespace autopart {

struct PinStats {
  size_t pinned = 0;  // ops given a sharding XLA would otherwise change
  int rounds = 0;     // propagations run
};

// `sharding(v)`: the plan's sharding of a value (null: replicated), as given
// to annotatePlan, which must have run on `m` first. False (errors in
// `diags`) when the annotated program does not re-parse or propagate.
bool pinAgainstPropagation(Module &m, OpId func, const std::string &meshName,
                           const std::function<const TensorSharding *(ValueId)> &sharding, Diagnostics &diags,
                           PinStats *stats = nullptr);

}  // namespace autopart
