// Peak memory of one device over a step: a liveness walk in program order
// over the entry function's ops with local (sharded) buffer sizes.
//  - arguments (parameters, optimizer state, data) are resident all step,
//    except donated ones (`tf.aliasing_output`, `jax.buffer_donor`), freed
//    after their last use;
//  - each result lives from its op to its last use (uses nested in a loop or
//    branch count at the enclosing op); returned values live to the end;
//  - an op's collective buffers and the peak inside its regions (loop
//    bodies) are live while the op runs.
//
//   %arg0 (donated, 4 MiB) -> %0 = exp %arg0 (4 MiB) -> %1 = exp %0 -> return %1
//   at %0: arg0 + %0 = 8 MiB; at %1: %0 + %1 = 8 MiB (arg0 freed after %0)
//   -> peak 8 MiB, while without donation it would be 12 MiB.
//
// With `describePeak` the report also says what the peak is made of: each
// buffer live there by its category (sim/ValueCategories.h: parameters,
// optimizer state, gradients, activations, inputs, other), the op's
// collective buffers as collective buffers, and the peak inside its regions
// by the categories of the buffers live at that inner peak.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/ShardingMap.h"
#include "sim/ValueCategories.h"

namespace autopart {

struct LiveBuffer {
  std::string what;  // "%arg0 params['w1']" or "stablehlo.dot_general at f.mlir:3:5"
  int64_t bytes = 0;
  ValueId value = kNone;  // kNone for transient buffers
  OpId op = kNone;        // defining op, kNone for arguments
};

struct MemoryReport {
  int64_t peakBytes = 0;
  OpId peakOp = kNone;  // op running at the peak (kNone: before the first op)
  int64_t argumentBytes = 0;
  int64_t donatedBytes = 0;
  std::vector<LiveBuffer> liveAtPeak;  // largest first
  // The peak by category (index: MemoryCategory); sums to peakBytes.
  MemoryBreakdown breakdown{};
  // Bytes live while each op of the entry block runs (index: its position
  // in the block), as the walk counts them for the peak: the largest entry
  // is peakBytes unless the peak is before the first op. Filled with
  // describePeak only (the report plots it; the search does not need it).
  std::vector<int64_t> timeline;
};

// `transientBytes(op)` adds per-op temporary buffers (collectives); may be
// empty. `describePeak` false leaves liveAtPeak and breakdown empty: the
// search prices thousands of plans and only needs the peak.
MemoryReport analyzeMemory(const Module &m, OpId func, const ShardingMap &shardings,
                           const std::function<int64_t(OpId)> &transientBytes = {}, bool describePeak = true);

// Indices of at most `maxPoints` entries of `values` for a plot: the values
// are cut into equal runs of consecutive entries and each run keeps its
// largest (the first of equal ones), so the peak always survives; in
// ascending order. Fewer values than maxPoints: every index.
//
//   bucketMaxima({1, 5, 2, 2, 9, 3, 4}, 3) -> runs {1,5,2} {2,9,3} {4} -> {1, 4, 6}
std::vector<size_t> bucketMaxima(const std::vector<int64_t> &values, size_t maxPoints);

}  // namespace autopart
