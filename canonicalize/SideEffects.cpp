#include "canonicalize/SideEffects.h"

#include <string_view>
#include <unordered_set>

namespace autopart::canonicalize {

namespace {

// Ops declaring no memory effects in their dialects. An allowlist: an op
// missing here is kept, which costs at most a dead op in the output.
const std::unordered_set<std::string_view> &effectFreeOps() {
  static const std::unordered_set<std::string_view> ops = {
      // stablehlo element-wise.
      "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.bitcast_convert",
      "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.clamp", "stablehlo.compare", "stablehlo.complex",
      "stablehlo.convert", "stablehlo.cosine", "stablehlo.count_leading_zeros", "stablehlo.divide",
      "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
      "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic",
      "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply", "stablehlo.negate", "stablehlo.not",
      "stablehlo.or", "stablehlo.popcnt", "stablehlo.power", "stablehlo.real", "stablehlo.reduce_precision",
      "stablehlo.remainder", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
      "stablehlo.rsqrt", "stablehlo.select", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
      "stablehlo.shift_right_logical", "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt",
      "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh", "stablehlo.xor",
      // stablehlo data movement and constants.
      "stablehlo.broadcast", "stablehlo.broadcast_in_dim", "stablehlo.concatenate", "stablehlo.constant",
      "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.gather",
      "stablehlo.get_dimension_size", "stablehlo.get_tuple_element", "stablehlo.iota", "stablehlo.pad",
      "stablehlo.reshape", "stablehlo.reverse", "stablehlo.slice", "stablehlo.transpose", "stablehlo.tuple",
      // stablehlo contractions.
      "stablehlo.convolution", "stablehlo.dot", "stablehlo.dot_general", "stablehlo.einsum",
      // Region ops whose effects are their bodies' (checked below).
      "stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.sort", "stablehlo.scatter",
      "stablehlo.select_and_scatter", "stablehlo.map", "stablehlo.if", "stablehlo.case", "stablehlo.while",
      "stablehlo.return",
      // sdy.
      "sdy.reshard", "sdy.constant", "sdy.propagation_barrier", "sdy.return", "sdy.manual_computation",
      "sdy.named_computation",
  };
  return ops;
}

bool isTerminator(std::string_view name) {
  return name == "func.return" || name == "sdy.return" || name == "stablehlo.return";
}

}  // namespace

bool isSideEffectFree(const Module &m, OpId op) {
  const auto &ops = effectFreeOps();
  if (!ops.count(m.opName(op))) return false;
  if (m.numRegions(op) == 0) return true;
  bool pure = true;
  m.walk(op, [&](OpId inner) {
    if (pure && !ops.count(m.opName(inner))) pure = false;
  });
  return pure;
}

bool isTriviallyDead(const Rewriter &rw, OpId op) {
  const Module &m = rw.m;
  return !isTerminator(m.opName(op)) && rw.resultsUnused(op) && isSideEffectFree(m, op);
}

}  // namespace autopart::canonicalize
