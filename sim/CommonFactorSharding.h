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

}  // namespace autopart
