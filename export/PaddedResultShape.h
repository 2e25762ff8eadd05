// The shape an op's result takes once its operands have grown by padding.
// For most ops the sharding rule (rules/) says it: a result dimension made of
// one factor that an operand dimension of the same original size is also made
// of passes that operand's size through. A convolution's windowed dimensions
// follow its window arithmetic instead.
//
//   %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
//        : (tensor<7x8xf32>, tensor<8x5xf32>) -> tensor<7x5xf32>
//   rule ([i, j], [j, k])->([i, k]); %a grown to 8x8, %b to 8x6
//   passThroughShape(result 0) -> {8, 6}
//
//   stablehlo.convolution 1x7x3 (spatial 7) with a 3-wide kernel, stride 1:
//   input spatial grown to 8 -> output spatial 8 - 3 + 1 = 6 (was 5)
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// Result `r` of `op` when its operands have the shapes `operandShapes`
// (`op` itself still has its original operand and result types). Dimensions
// the rule does not tie to an operand keep their original size. Ops without
// a rule: a data-flow op's result i follows operand i when they had one type.
std::vector<int64_t> passThroughShape(const Module &m, OpId op, uint32_t r,
                                      const std::vector<std::vector<int64_t>> &operandShapes);

// Per operand of `op`, per dimension: whether the op can carry that
// dimension grown, because its rule passes it through to a result dimension
// of the same original size or sums over it (a reduction factor, whose
// padding the caller fills with the identity). A dimension it cannot carry
// (concatenated, gathered from, merged by a reshape) must be back at its
// original size before the op. Nullopt for ops without a rule.
std::optional<std::vector<std::vector<bool>>> carriedOperandDims(const Module &m, OpId op);

// The result shape of stablehlo.convolution `op` for operands of shapes
// `lhs` and `rhs` under the op's own window and dimension numbers; nullopt
// when those shapes do not form a valid convolution.
std::optional<std::vector<int64_t>> convolutionShape(const Module &m, OpId op, const std::vector<int64_t> &lhs,
                                                     const std::vector<int64_t> &rhs);

}  // namespace autopart
