// A tensor sharding seen through an op's sharding rule: which mesh axes shard
// each factor of the op's iteration space, per operand and result (Shardy's
// "sharding projection"). A dimension made of several factors hands its axes
// to the factors major to minor, splitting an axis into sub-axes where a
// factor is smaller than the axis:
//
//   rule ([ij])->([i, j]) {i=2, j=8}, operand sharded [{"x", "y"}] on
//   mesh ["x"=4, "y"=2]:   i <- "x":(1)2   j <- "x":(2)2, "y"
//
// Axes that cannot be split evenly over a non-minor factor are kept as
// overflow axes and come back out unchanged when the projection is turned
// back into a tensor sharding.
#pragma once

#include <optional>
#include <vector>

#include "ir/ShardingRule.h"
#include "propagation/AxisList.h"

namespace autopart {

struct FactorSharding {
  AxisList axes;
  AxisList overflow;
  bool present = false;  // whether the tensor has this factor at all
};

struct TensorFactorShardings {
  std::vector<FactorSharding> factors;  // indexed by factor
  bool has(size_t f) const { return factors[f].present; }
  bool hasOverflow() const;
  // Product of the sizes of every factor's axes.
  int64_t shardingSize(const Mesh &mesh) const;
};

// `sharding` may be null (an unsharded tensor).
TensorFactorShardings projectTensor(const TensorSharding *sharding,
                                    const OpShardingRule::TensorFactors &mapping,
                                    const OpShardingRule &rule, const Mesh &mesh);
// The closed tensor sharding on mesh `meshName` that `tfs` describes.
TensorSharding unprojectTensor(const TensorFactorShardings &tfs,
                               const OpShardingRule::TensorFactors &mapping,
                               const std::string &meshName, const Mesh &mesh);

// Two shardings that shard every dimension over the same axes (open/closed,
// priorities and explicitly replicated axes aside); null is fully replicated.
bool equivalentShardings(const TensorSharding *a, const TensorSharding *b, const Mesh &mesh);

}  // namespace autopart
