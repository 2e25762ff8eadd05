// Operand/result consistency of the elementwise family, checked before the
// kernel runs. The kernels loop over flat buffers sized by the result type,
// so an operand whose shape or element type disagrees with what the op
// declares (a hand-edited or mutated program the parser accepts) must be a
// located error, not a read past the end of a buffer:
//
//   %0 = stablehlo.constant dense<1.0> : tensor<5xf32>
//   %1 = stablehlo.tanh %0 : tensor<4xf32>
//   -> error: stablehlo.tanh: operand #0 is tensor<5xf32>, the result tensor<4xf32>
#pragma once

#include "exec/Interpreter.h"

namespace autopart::exec {

// Throws ExecError when `op` is elementwise and an operand's shape differs
// from the result's (scalar predicates/bounds of select/clamp aside) or its
// data operands' element types differ from each other.
void checkElementwiseOperands(const Interpreter &I, OpId op);

}  // namespace autopart::exec
