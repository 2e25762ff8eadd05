#include "exec/ShapeGuard.h"

#include <string_view>
#include <unordered_set>

namespace autopart::exec {
namespace {

// Ops whose every operand has the result's shape.
const std::unordered_set<std::string_view> &elementwise() {
  static const std::unordered_set<std::string_view> s = {
      "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide", "stablehlo.remainder",
      "stablehlo.maximum", "stablehlo.minimum", "stablehlo.power", "stablehlo.atan2", "stablehlo.and",
      "stablehlo.or", "stablehlo.xor", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
      "stablehlo.shift_right_logical", "stablehlo.abs", "stablehlo.negate", "stablehlo.exponential",
      "stablehlo.exponential_minus_one", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.sqrt",
      "stablehlo.rsqrt", "stablehlo.cbrt", "stablehlo.tanh", "stablehlo.logistic", "stablehlo.sine",
      "stablehlo.cosine", "stablehlo.tan", "stablehlo.floor", "stablehlo.ceil", "stablehlo.round_nearest_even",
      "stablehlo.round_nearest_afz", "stablehlo.sign", "stablehlo.not", "stablehlo.popcnt",
      "stablehlo.count_leading_zeros", "stablehlo.is_finite", "stablehlo.real", "stablehlo.imag",
      "stablehlo.complex", "stablehlo.convert", "stablehlo.compare", "stablehlo.select", "stablehlo.clamp",
      "stablehlo.reduce_precision"};
  return s;
}

// Ops whose operands (from `first` on) share one element type.
uint32_t firstSameTypedOperand(std::string_view name) {
  if (name == "stablehlo.select") return 1;  // after the i1 predicate
  if (name == "stablehlo.convert" || name == "stablehlo.is_finite" || name == "stablehlo.real" ||
      name == "stablehlo.imag" || name == "stablehlo.reduce_precision")
    return ~0u;
  return 0;
}

}  // namespace

void checkElementwiseOperands(const Interpreter &I, OpId op) {
  std::string_view name = I.m.opName(op);
  if (!elementwise().count(name) || I.m.numResults(op) != 1) return;
  TypeId rt = I.resultType(op);
  if (!I.m.types.isTensor(rt) || I.m.types.hasDynamicDim(rt)) return;
  const std::vector<int64_t> &shape = I.m.types.shape(rt);
  bool scalarOk = name == "stablehlo.select" || name == "stablehlo.clamp";
  uint32_t same = firstSameTypedOperand(name), n = uint32_t(I.m.operands(op).size());
  for (uint32_t i = 0; i < n; ++i) {
    const Tensor &x = I.in(op, i);
    if (x.shape != shape && !(scalarOk && x.rank() == 0))
      I.fail(op, std::string(name) + ": operand #" + std::to_string(i) + " is " + x.typeString() + ", the result " +
                     std::string(I.m.types.str(rt)));
    if (i > same && same != ~0u && !(x.dtype == I.in(op, same).dtype))
      I.fail(op, std::string(name) + ": operand #" + std::to_string(i) + " is " + x.typeString() + ", operand #" +
                     std::to_string(same) + " " + I.in(op, same).typeString());
  }
}

}  // namespace autopart::exec
