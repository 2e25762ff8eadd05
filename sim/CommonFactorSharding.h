// One sharding per factor that every operand and result of an op can agree on,
// as Shardy's explicit-reshard insertion chooses it. When the operands and
// results already agree factor by factor (and no reduction factor shares an
// axis with a result) that agreement is the answer; otherwise a greedy
// heuristic repeatedly gives the factor whose candidate axes are backed by the
// most tensor bytes those axes, removing them from every other candidate:
//
//   add(a [{"x"}, {}], b [{}, {"x"}]) -> r [{"x"}, {}] on mesh ["x"=4]
//   factors i (dim 0), j (dim 1): candidates (i, x) backed by a and r,
//   (j, x) by b only -> i <- x, j <- {}; b is resharded to [{"x"}, {}].
//
// Factors that need replication take part in the heuristic, then hand the
// axes they won to the batching factors that have room for them:
//
//   fft [{"x"}, {"y"}, {"z"}] -> [{"x"}, {"y"}, {"z"}], length = [32, 64],
//   128x32x64 on ["x"=4, "y"=2, "z"=4]: i <- x, j <- y, k <- z; j and k must
//   be whole, so y and z move to i: i <- x, y, z (128 / 32 = 4 left).
//
// An op with one non-scalar operand and one non-scalar result keeps the
// sharding of the bigger (then more sharded) tensor and reshards the other.
//
// A reshape whose operand or result has overflow axes (an axis that does not
// divide what is left of a factor) is settled differently, see
// `reshapeOverflowAxes`.
#pragma once

#include <optional>
#include <vector>

#include "ir/FactorProjection.h"

namespace autopart {

using AxesPerFactor = std::vector<AxisList>;

// `tensors` are the operands then the results, projected on `rule`.
std::optional<AxesPerFactor> compatibleFactorShardings(
    const std::vector<TensorFactorShardings> &tensors, const OpShardingRule &rule,
    size_t numOperands, const Mesh &mesh);

// `tensorSizes` are global element counts (0 for dynamic shapes), in the
// order of `tensors`.
AxesPerFactor findCommonAxes(const std::vector<TensorFactorShardings> &tensors,
                             const OpShardingRule &rule, size_t numOperands,
                             const std::vector<int64_t> &tensorSizes, const Mesh &mesh);

// Shardy's factor sharding for a reshape (one operand, one result) whose
// projection has overflow axes. Every axis of the more sharded side (its
// factor axes and overflow axes, by factor index) is dealt out again on each
// side: each (sub-)axis goes to the first factor, in the tensor's dimension
// order, that shares a divisor with it, split by that divisor when the axis is
// bigger; what is left of it is offered to the next factors, then again from
// the first. Each side is laid back out as a tensor sharding and projected
// once more, and a factor keeps the greatest common prefix of its axes on the
// two sides:
//
//   ([ij, k])->([i, jk]) {i=4, j=6144, k=8192} on ["x"=6, "y"=4096],
//   operand [{"x", "y"}, {}]: i <- "x":(1)2, overflow "x":(2)3, "y"
//   dealt out: "x":(1)2 -> i, "x":(2)3 -> j (coprime with what is left of i),
//   "y" -> "y":(1)2 to i, "y":(2)2048 to j
//   -> i <- "x":(1)2, "y":(1)2   j <- "x":(2)3, "y":(2)2048   k <- {}
//
// Axes that no factor can take go to the overflow of the tensor's last
// factor, so they can land on another dimension:
//
//   1x1x1 [{"x"}, {}, {}] on ["x"=4], ([ij, k, l])->([]) {i=3, j=2, k=1, l=1}
//   -> j <- "x":(1)2 (not laid out: i before it is not fully sharded),
//      l <- "x":(2)2; the operand is read as [{}, {}, {"x":(2)2}].
AxesPerFactor reshapeOverflowAxes(const std::vector<TensorFactorShardings> &tensors,
                                  const OpShardingRule &rule, const Mesh &mesh);

}  // namespace autopart
