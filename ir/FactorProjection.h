// A tensor sharding seen through an op's sharding rule: which mesh axes shard
// each factor of the op's iteration space, per operand and result (Shardy's
// "sharding projection"). A dimension made of several factors hands its axes
// to the factors major to minor, splitting an axis into sub-axes where a
// factor is smaller than the axis:
//
//   rule ([ij])->([i, j]) {i=2, j=8}, operand sharded [{"x", "y"}] on
//   mesh ["x"=4, "y"=2]:   i <- "x":(1)2   j <- "x":(2)2, "y"
//
// A non-minor factor takes axes (splitting one by the gcd of what is left of
// the factor and of the axis) until it is fully sharded; when what is left of
// the factor and the next axis are coprime, that axis and all after it are
// kept as overflow axes, come back out unchanged when the projection is
// turned back into a tensor sharding, and close the dimension's later factors.
//
// Propagation reads a projection, picks new axes per factor (see
// FactorPropagation.h) and writes them back with `expandFactor`; then
// `toTensorSharding` gives the dimension shardings again, open where the
// tensor was open:
//
//   rule ([i, j], [j, k])->([i, k]), lhs [{"x"}, {}], rhs unsharded (open):
//   lhs: i <- "x"  j <- -      rhs: j <- -, k <- -      result: i, k open
//   propagation sets i = ["x"] on the result -> [{"x", ?}, {?}]
#pragma once

#include <optional>
#include <vector>

#include "ir/AxisList.h"
#include "ir/ShardingRule.h"

namespace autopart {

struct FactorSharding {
  AxisList axes;
  AxisList overflow;
  bool present = false;  // whether the tensor has this factor at all
  bool isClosed = false;  // its dimension is closed: no further axes
  bool isMinorMost = false;  // last factor of its dimension
};

struct TensorFactorShardings {
  std::vector<FactorSharding> factors;  // indexed by factor
  AxisList replicated;
  AxisList unreduced;
  bool has(size_t f) const { return factors[f].present; }
  // Sets factor `f` to `axes` when the current axes are a strict prefix of
  // them (propagation only ever adds minor axes); returns whether it did.
  bool expandFactor(size_t f, const AxisList &axes, const Mesh &mesh);
  bool hasOverflow() const;
  // Product of the sizes of every factor's axes.
  int64_t shardingSize(const Mesh &mesh) const;
};

// `sharding` may be null (an unsharded tensor): then every factor is open, or
// closed when `closedIfMissing`.
TensorFactorShardings projectTensor(const TensorSharding *sharding,
                                    const OpShardingRule::TensorFactors &mapping,
                                    const OpShardingRule &rule, const Mesh &mesh,
                                    bool closedIfMissing = false);
// The same into `out`, reusing its storage (propagation projects every step
// into the same buffers).
void projectTensor(TensorFactorShardings &out, const TensorSharding *sharding,
                   const OpShardingRule::TensorFactors &mapping, const OpShardingRule &rule,
                   const Mesh &mesh, bool closedIfMissing = false);
// The tensor sharding `tfs` describes as propagation writes it: a dimension is
// closed only when one of its factors is, priorities are dropped, replicated
// and unreduced axes are kept. A dimension stops at the first factor that is
// not fully sharded (the next one would need a strided view).
TensorSharding toTensorSharding(const TensorFactorShardings &tfs,
                                const OpShardingRule::TensorFactors &mapping,
                                const OpShardingRule &rule, const std::string &meshName,
                                const Mesh &mesh);
// The closed tensor sharding on mesh `meshName` that `tfs` describes.
TensorSharding unprojectTensor(const TensorFactorShardings &tfs,
                               const OpShardingRule::TensorFactors &mapping,
                               const std::string &meshName, const Mesh &mesh);

// Two shardings that shard every dimension over the same axes (open/closed,
// priorities and explicitly replicated axes aside); null is fully replicated.
bool equivalentShardings(const TensorSharding *a, const TensorSharding *b, const Mesh &mesh);

}  // namespace autopart
