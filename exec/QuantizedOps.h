// Which ops may see quantized tensors. The executor keeps a quantized tensor
// as its dequantized values and quantizes every result (exec/Quantized.h), so
// a kernel that computes in floats and writes a fresh result implements the
// spec's dequantize_op_quantize; the ops listed in QuantizedOps.cpp are those
// whose kernels were checked to do so. Any other op meeting a quantized
// operand or result is a located error, never an integer-arithmetic answer:
//
//   %r = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0]
//       : (tensor<4x!quant.uniform<i8:f32, 0.5>>, ...) -> ...
//   -> error: quantized operands or results are not supported by 'stablehlo.reduce'
#pragma once

#include "exec/Interpreter.h"

namespace autopart::exec {

// Throws ExecError when `op` has a quantized operand or result and is not
// one of the ops above; cheap (a type lookup per value) for every op.
void checkQuantizedOp(const Interpreter &I, OpId op);

}  // namespace autopart::exec
