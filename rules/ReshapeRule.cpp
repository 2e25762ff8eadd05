// The rule of stablehlo.reshape: input and output dimensions are cut into
// common factors by greatest common divisors, so a sharding can follow a
// merged or split dimension as far as the sizes allow:
//
//   tensor<2x4xf32> -> tensor<8xf32>    ([i, j])->([ij]) {i=2, j=4}
//   tensor<6xf32>   -> tensor<2x3xf32>  ([ij])->([i, j]) {i=2, j=3}
//   tensor<3x2xf32> -> tensor<2x3xf32>  ([i, j])->([k, l]) {i=3, j=2, k=2, l=3}
//                                       (no common factor: sizes share none)
// Size-1 dimensions get factors of their own.
#include <numeric>

#include "rules/RuleFamilies.h"

namespace autopart::rules {

std::optional<OpShardingRule> reshapeRule(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  for (int64_t d : in)
    if (d == 0) return std::nullopt;  // nothing to propagate through zero elements
  int64_t inRank = int64_t(in.size()), outRank = int64_t(out.size());
  int64_t inDim = 0, outDim = 0;
  int64_t prodDimsIn = 1, prodDimsOut = 1, prodFactorsIn = 1, prodFactorsOut = 1;
  RuleBuilder b(m, op);
  // Each step adds at least one factor > 1 or consumes a size-1 dimension, so
  // the loop ends; the guard protects against malformed (size-changing) input.
  for (int guard = 0; (inDim < inRank || outDim < outRank) && guard < 4096; ++guard) {
    if (inDim < inRank && in[size_t(inDim)] == 1) {
      b.addFactor({inDim++}, {kNullDim}, 1);
      continue;
    }
    if (outDim < outRank && out[size_t(outDim)] == 1) {
      b.addFactor({kNullDim}, {outDim++}, 1);
      continue;
    }
    if (inDim < inRank && prodDimsIn == prodFactorsIn) prodDimsIn *= in[size_t(inDim)];
    if (outDim < outRank && prodDimsOut == prodFactorsOut) prodDimsOut *= out[size_t(outDim)];
    int64_t nextIn = prodDimsIn / prodFactorsIn, nextOut = prodDimsOut / prodFactorsOut;
    int64_t gcd = std::gcd(nextIn, nextOut);
    auto diverged = [gcd](int64_t next, int64_t smaller, int64_t larger) {
      if (larger % smaller == 0 && next % (larger / smaller) == 0) return larger / smaller;
      if (next > gcd) return next / gcd;
      return next;
    };
    if (prodFactorsIn == prodFactorsOut) {
      if (gcd > 1) {
        b.addFactor({inDim}, {outDim}, gcd);
        prodFactorsIn *= gcd;
        prodFactorsOut *= gcd;
      } else {
        if (nextIn <= 1 || nextOut <= 1) return std::nullopt;  // sizes do not match
        b.addFactor({inDim}, {kNullDim}, nextIn);
        prodFactorsIn *= nextIn;
        b.addFactor({kNullDim}, {outDim}, nextOut);
        prodFactorsOut *= nextOut;
      }
    } else if (prodFactorsIn < prodFactorsOut) {
      nextIn = diverged(nextIn, prodFactorsIn, prodFactorsOut);
      if (nextIn <= 1) return std::nullopt;
      b.addFactor({inDim}, {kNullDim}, nextIn);
      prodFactorsIn *= nextIn;
    } else {
      nextOut = diverged(nextOut, prodFactorsOut, prodFactorsIn);
      if (nextOut <= 1) return std::nullopt;
      b.addFactor({kNullDim}, {outDim}, nextOut);
      prodFactorsOut *= nextOut;
    }
    if (inDim < inRank && prodDimsIn == prodFactorsIn) ++inDim;
    if (outDim < outRank && prodDimsOut == prodFactorsOut) ++outDim;
  }
  return b.build();
}

}  // namespace autopart::rules
