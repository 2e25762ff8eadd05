// The named-dimension analysis, after TOAST: tensor dimensions that must be
// sharded alike get one *name*. Two dimensions are linked when some op's rule
// (rules/OpShardingRuleRegistry.h) maps both to one pass-through or reduction
// factor, and through data flow: call arguments and results, while-loop
// carried values, case branches, optimization barriers, manual computations.
// A union-find over (value, dimension) pairs makes this one near-linear pass.
//
//   %0 = dot_general %x, %w1 : (tensor<256x1024>, tensor<1024x4096>) -> tensor<256x4096>
//   %1 = dot_general %0, %w2 : (tensor<256x4096>, tensor<4096x1024>) -> tensor<256x1024>
//
//   n0 size 256:  %x dim 0, %0 dim 0, %1 dim 0                  (batch)
//   n1 size 1024: %x dim 1, %w1 dim 0 (reduced at the first dot)
//   n2 size 4096: %w1 dim 1, %0 dim 1, %w2 dim 0 (reduced at the second)
//   n3 size 1024: %w2 dim 1, %1 dim 1
//
// Sharding a name shards every member dimension. A *conflict* is a name that
// lands on two dimensions of one value (`x @ transpose(x)`, attention scores
// q·kᵀ over one sequence name): only one of them can keep the name, the
// other must get a fresh one, and the search chooses which.
//
// A need-replication or blocked factor (a sorted dimension, a concatenated
// one, a wide gather window) does not link: the op records that the name
// must be gathered there (`replicatedAt`), the name itself stays shardable.
// Size-1 dimensions, the tensors of ops without a rule (kept replicated, and
// their whole classes with them), and classes that link nothing and only meet
// need-replication factors are outside the decision space.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "rules/OpShardingRuleRegistry.h"
#include "support/Diagnostics.h"

namespace autopart {

// A (value, dimension) pair: one occurrence of a named dimension.
struct DimRef {
  ValueId value;
  uint32_t dim;
  bool operator==(const DimRef &) const = default;
};

using NameId32 = uint32_t;
inline constexpr NameId32 kNoDimName = 0xffffffffu;

struct DimName {
  int64_t size = 0;
  std::vector<DimRef> members;
  std::vector<OpId> reducedAt;  // ops where sharding it leaves partial sums
  int64_t bytes = 0;            // bytes of the distinct values it touches
  // Ops that need one of its members replicated (a need-replication or
  // blocked factor: a sorted or concatenated dimension, a gather window):
  // they do not link the member, and sharding the name costs a reshard there.
  std::vector<OpId> replicatedAt;
  bool isReduction() const { return !reducedAt.empty(); }
};

struct DimConflict {
  NameId32 name = kNoDimName;
  ValueId value = kNone;
  uint32_t dimA = 0, dimB = 0;  // the two dimensions of `value`
  OpId where = kNone;           // the op defining (or first using) `value`
  // Candidate resolutions: keep the name on dimA and give dimB a fresh name,
  // or the reverse.
};

class NamedDimensions {
public:
  std::vector<DimName> names;
  std::vector<DimConflict> conflicts;
  int64_t numTensorDims = 0;     // dimensions of all tensor values
  int64_t numNontrivialDims = 0; // size > 1 and shardable
  int64_t numOps = 0;
  std::vector<OpId> unknownOps;  // no rule: kept replicated

  // The name of a value's dimension, or kNoDimName (size 1, excluded).
  NameId32 nameOf(ValueId v, uint32_t dim) const;
  // log10 of the number of plans with `numAxes` mesh axes: before the
  // analysis every dimension chooses (replicated or one axis) alone; after,
  // every name does, plus a binary choice per conflict.
  double log10SpaceBefore(int numAxes) const;
  double log10SpaceAfter(int numAxes) const;

private:
  friend NamedDimensions analyzeNamedDimensions(const Module &, const RuleOptions &, Diagnostics *);
  std::vector<uint32_t> dimOffset_;  // per value: index of its dim 0
  std::vector<NameId32> nameOfDim_;  // per (value, dim)
};

NamedDimensions analyzeNamedDimensions(const Module &m, const RuleOptions &options = {},
                                       Diagnostics *diags = nullptr);

// `%arg1 dim 1`, `dot_general#12 result dim 0` — for reports.
std::string describeDim(const Module &m, DimRef d);

}  // namespace autopart
