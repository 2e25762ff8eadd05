// The data of an op sharding rule, as Shardy's `#sdy.op_sharding_rule`: the
// op's iteration space as factors, and for every operand and result dimension
// the factors it is made of (major to minor). The rule *registry* that knows
// which op gets which rule lives in rules/; this is only the value type.
//
//   %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
//        : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
//
//   factor  size  kind          operand dims     result dims
//   i       8     pass-through  a[0]             r[0]
//   j       32    reduction     a[1], b[0]       -
//   k       16    pass-through  b[1]             r[1]
//
//   #sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=8, j=32, k=16}
//                         reduction={j}>
//
// A reshape 2x4 -> 8 maps the result dimension to two factors: ([i, j])->([ij]).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace autopart {

enum class FactorKind : uint8_t {
  PassThrough,      // In operands and results alike.
  Reduction,        // Only in operands: sharding it leaves partial sums.
  NeedReplication,  // Must not be sharded (e.g. sort's dimension).
  Permutation,      // Sharding it needs data movement (e.g. a shifted slice).
};

struct OpShardingRule {
  using DimFactors = std::vector<int32_t>;      // factor indices, major first
  using TensorFactors = std::vector<DimFactors>;  // per dimension

  std::vector<int64_t> factorSizes;
  std::vector<TensorFactors> operands;
  std::vector<TensorFactors> results;
  std::vector<int32_t> reductionFactors;
  std::vector<int32_t> needReplicationFactors;
  std::vector<int32_t> permutationFactors;
  std::vector<int32_t> blockedPropagationFactors;
  bool isCustom = false;

  size_t numFactors() const { return factorSizes.size(); }
  FactorKind kind(int32_t factor) const;
  bool isBlocked(int32_t factor) const;
  // Adds a factor and returns its index.
  int32_t addFactor(int64_t size) {
    factorSizes.push_back(size);
    return int32_t(factorSizes.size() - 1);
  }
  // Factor names as Shardy prints them: i..z, then z_1, z_2, ...
  static std::string factorName(size_t index);
  // `#sdy.op_sharding_rule<(...)->(...) {i=..} reduction={..}, custom>`
  std::string str() const;
  bool operator==(const OpShardingRule &) const = default;
};

}  // namespace autopart
