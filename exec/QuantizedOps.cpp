// stablehlo.uniform_quantize / uniform_dequantize, and the gate that keeps
// quantized tensors away from kernels that would mistreat them
// (QuantizedOps.h). With quantized tensors kept dequantized (Quantized.h),
// quantizing is a conversion whose normalize() puts values on the result's
// grid, and dequantizing reads the values as they are:
//
//   uniform_quantize [4.0, 15.0] : f32 -> !quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>
//     q = [4.0 / 0.1 - 30, 15.0 / 0.5 - 20] = [10, 10], kept as [4.0, 15.0]
//   uniform_quantize of that -> !quant.uniform<i8:f32:0, {0.1:-20, 0.2:-30}>
//     (a requantization: dequantize, then quantize) q = [20, 45]
//   uniform_dequantize [10, 10] with {0.1:-30, 0.5:-20} -> [4.0, 15.0]
#include "exec/QuantizedOps.h"

#include <string_view>
#include <unordered_set>

#include "exec/Run.h"

namespace autopart::exec {
namespace {

void uniformQuantizeOp(Interpreter &I, OpId op) {
  DType rd = I.resultDType(op);
  const Tensor &x = I.in(op, 0);
  if (!rd.isQuantized() || !(x.dtype.isFloat || x.dtype.isQuantized()))
    I.fail(op, "uniform_quantize maps a float or quantized tensor to a quantized one, not " + x.typeString() +
                   " to " + std::string(I.m.types.str(I.resultType(op))));
  I.setResult(op, 0, convertTensor(x, rd));
}

void uniformDequantizeOp(Interpreter &I, OpId op) {
  DType rd = I.resultDType(op);
  const Tensor &x = I.in(op, 0);
  if (!x.dtype.isQuantized() || !rd.isFloat || rd.isQuantized() || x.dtype.quant->expressed != rd.name)
    I.fail(op, "uniform_dequantize maps a quantized tensor to its expressed type, not " + x.typeString() + " to " +
                   std::string(I.m.types.str(I.resultType(op))));
  I.setResult(op, 0, convertTensor(x, rd));
}

// Kernels that compute in floats on their operands' values and write a new,
// normalized result (elementwise math, compare, select, clamp, dot_general,
// convolution: the spec's dequantize_op_quantize and, for float results,
// hybrid_dequantize_then_op), or that move values without changing them.
const std::unordered_set<std::string_view> &quantizedOk() {
  static const std::unordered_set<std::string_view> s = {
      "stablehlo.uniform_quantize", "stablehlo.uniform_dequantize", "stablehlo.bitcast_convert",
      "stablehlo.constant", "stablehlo.abs", "stablehlo.add", "stablehlo.atan2", "stablehlo.cbrt",
      "stablehlo.ceil", "stablehlo.cosine", "stablehlo.divide", "stablehlo.exponential",
      "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.log", "stablehlo.log_plus_one",
      "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply", "stablehlo.negate",
      "stablehlo.power", "stablehlo.remainder", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
      "stablehlo.rsqrt", "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract",
      "stablehlo.tan", "stablehlo.tanh", "stablehlo.compare", "stablehlo.select", "stablehlo.clamp",
      "stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution",
      // Values moved unchanged (the spec gives these one element type in and out).
      "stablehlo.broadcast_in_dim", "stablehlo.dynamic_broadcast_in_dim", "stablehlo.reshape",
      "stablehlo.dynamic_reshape", "stablehlo.get_dimension_size", "stablehlo.transpose", "stablehlo.slice",
      "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.concatenate", "stablehlo.pad",
      "stablehlo.reverse", "stablehlo.gather", "stablehlo.tuple", "stablehlo.get_tuple_element",
      "stablehlo.optimization_barrier", "func.call", "call", "stablehlo.while", "stablehlo.if", "stablehlo.case"};
  return s;
}

bool isQuantizedValue(const Module &m, ValueId v) {
  const TypeStorage &t = m.types.get(m.type(v));
  if (t.kind != TypeKind::Tensor || t.element == kNoType) return false;
  const TypeStorage &e = m.types.get(t.element);
  return e.kind == TypeKind::Opaque && isQuantizedTypeName(e.text);
}

KernelRegistration regs[] = {
    {{"stablehlo.uniform_quantize"}, uniformQuantizeOp},
    {{"stablehlo.uniform_dequantize"}, uniformDequantizeOp},
};

}  // namespace

void checkQuantizedOp(const Interpreter &I, OpId op) {
  const Module &m = I.m;
  bool any = false;
  for (ValueId v : m.operands(op)) any = any || isQuantizedValue(m, v);
  for (uint32_t i = 0; i < m.numResults(op) && !any; ++i) any = isQuantizedValue(m, m.result(op, i));
  if (!any || quantizedOk().count(m.opName(op)) || isCheckOp(m, op)) return;
  I.fail(op, "quantized operands or results are not supported by '" + std::string(m.opName(op)) + "'");
}

}  // namespace autopart::exec
