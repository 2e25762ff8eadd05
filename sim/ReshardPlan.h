// What an op needs so that its operands and results agree with its sharding
// rule, with Shardy's explicit-reshard semantics: one sharding per factor
// (sim/CommonFactorSharding.h), operands resharded to it before the op,
// results computed in it and resharded back to their annotated sharding after,
// and an all-reduce of the results over the axes sharding reduction factors
// that the results do not keep unreduced.
//
//   %r = stablehlo.dot %a [{"x"}, {"y"}], %b [{"y"}, {}] -> [{"x"}, {"y"}]
//   on ["x"=4, "y"=2], rule ([i, j], [j, k])->([i, k]) reduction={j}:
//   factors i <- x, j <- y, k <- {}; operands unchanged; result computed as
//   [{"x"}, {}], all-reduce {"y"}, reshard to [{"x"}, {"y"}] -- which the
//   cost model prices as one reduce-scatter over y.
#pragma once

#include <optional>
#include <vector>

#include "sim/Collective.h"
#include "sim/CommonFactorSharding.h"
#include "sim/ShardingMap.h"

namespace autopart {

struct OpReshardPlan {
  bool applies = false;  // the op has a rule and its tensors a common mesh
  std::string meshName;
  const Mesh *mesh = nullptr;
  // Per operand: the sharding the op reads it in, when not the operand's own.
  std::vector<std::optional<TensorSharding>> operandTargets;
  // Per result: the sharding the op computes it in, when not the annotated
  // one (a reshard to the annotated sharding follows).
  std::vector<std::optional<TensorSharding>> resultShardings;
  AxisList allReduceAxes;  // sorted as the mesh orders them
  AxesPerFactor factorAxes;
  // How many pieces the op's iteration space is cut into: local work is the
  // global work divided by this.
  int64_t iterationShards = 1;
};

OpReshardPlan planOp(const Module &m, OpId op, const OpShardingRule &rule, const ShardingMap &shardings);

// The mesh an op's tensors share (most common among sharded ones), or null
// when none is sharded, they disagree, or the mesh is maximal.
const Mesh *commonMesh(const std::vector<const TensorSharding *> &shardings,
                       const ShardingMap &map, std::string *name);

// The collectives `plan` implies for `op`, with bytes per device.
std::vector<Collective> planCollectives(const Module &m, OpId op, const OpReshardPlan &plan,
                                        const ShardingMap &shardings);

}  // namespace autopart
