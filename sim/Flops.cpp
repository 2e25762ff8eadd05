#include "sim/Flops.h"

#include <string_view>
#include <unordered_set>

#include "ir/StablehloAttrs.h"

namespace autopart {

static const std::unordered_set<std::string_view> &elementwiseOps() {
  static const std::unordered_set<std::string_view> s = {
      "abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "compare", "complex", "convert",
      "cosine", "count_leading_zeros", "divide", "exponential", "exponential_minus_one", "floor",
      "imag", "is_finite", "log", "log_plus_one", "logistic", "maximum", "minimum", "multiply",
      "negate", "not", "or", "popcnt", "power", "real", "remainder", "round_nearest_afz",
      "round_nearest_even", "rsqrt", "select", "shift_left", "shift_right_arithmetic",
      "shift_right_logical", "sign", "sine", "sqrt", "subtract", "tan", "tanh", "xor",
      "reduce_precision", "erf", "map", "bitcast_convert"};
  return s;
}

static const std::unordered_set<std::string_view> &dataMovementOps() {
  static const std::unordered_set<std::string_view> s = {
      "reshape", "transpose", "broadcast_in_dim", "broadcast", "slice", "dynamic_slice",
      "dynamic_update_slice", "concatenate", "pad", "reverse", "gather", "scatter", "iota",
      "constant", "copy", "get_tuple_element", "tuple", "all_gather", "all_to_all",
      "collective_permute", "collective_broadcast", "sort", "optimization_barrier",
      "dynamic_reshape", "dynamic_broadcast_in_dim", "real_dynamic_slice", "dynamic_gather",
      "dynamic_pad"};
  return s;
}

static std::string_view shortName(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  size_t dot = name.find('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

OpCategory opCategory(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  if (name == "stablehlo.dot_general" || name == "stablehlo.dot" || name == "stablehlo.convolution")
    return OpCategory::Contraction;
  if (name == "stablehlo.reduce" || name == "stablehlo.reduce_window" ||
      name == "stablehlo.all_reduce" || name == "stablehlo.reduce_scatter" ||
      name == "stablehlo.select_and_scatter")
    return OpCategory::Reduction;
  if (name == "stablehlo.while" || name == "stablehlo.case" || name == "stablehlo.if" ||
      name == "func.call" || name == "func.return" || name == "stablehlo.return" ||
      name == "sdy.return" || name == "sdy.manual_computation" || name == "sdy.named_computation")
    return OpCategory::Control;
  std::string_view s = shortName(m, op);
  bool knownDialect = name.starts_with("stablehlo.") || name.starts_with("chlo.");
  if (knownDialect && elementwiseOps().count(s)) return OpCategory::Elementwise;
  if (knownDialect && dataMovementOps().count(s)) return OpCategory::DataMovement;
  if (name.starts_with("sdy.")) return OpCategory::DataMovement;
  return OpCategory::Other;
}

double opFlops(const Module &m, OpId op) {
  const TypeTable &t = m.types;
  switch (opCategory(m, op)) {
  case OpCategory::Contraction: {
    if (m.numOperands(op) < 2 || m.numResults(op) < 1) return 0;
    double out = double(t.numElements(m.type(m.result(op))));
    if (m.isa(op, "stablehlo.convolution")) {
      std::optional<ConvDims> d = getConvDims(m, op);
      if (!d) return 0;
      const std::vector<int64_t> &k = t.shape(m.type(m.operand(op, 1)));
      double window = 1;
      for (int64_t s : d->kernelSpatial)
        if (s >= 0 && size_t(s) < k.size()) window *= double(k[size_t(s)]);
      double inFeatures = size_t(d->kernelInput) < k.size() ? double(k[size_t(d->kernelInput)]) : 1;
      return 2 * out * window * inFeatures;
    }
    std::optional<DotDims> d = getDotDims(m, op);
    if (!d) return 0;
    const std::vector<int64_t> &lhs = t.shape(m.type(m.operand(op, 0)));
    double contract = 1;
    for (int64_t c : d->lhsContract)
      if (c >= 0 && size_t(c) < lhs.size()) contract *= double(lhs[size_t(c)]);
    return 2 * out * contract;
  }
  case OpCategory::Elementwise: {
    double n = 0;
    for (uint32_t i = 0; i < m.numResults(op); ++i) n += double(t.numElements(m.type(m.result(op, i))));
    return n;
  }
  case OpCategory::Reduction: {
    double n = 0;
    uint32_t inputs = m.isa(op, "stablehlo.reduce") || m.isa(op, "stablehlo.reduce_window")
                          ? m.numOperands(op) / 2
                          : m.numOperands(op);
    for (uint32_t i = 0; i < inputs; ++i) n += double(t.numElements(m.type(m.operand(op, i))));
    if (m.isa(op, "stablehlo.reduce_window")) {
      AttrId w = m.attr(op, "window_dimensions");
      if (w != kNoAttr) {
        double window = 1;
        for (int64_t x : m.attrs.intList(w)) window *= double(x);
        double out = m.numResults(op) ? double(t.numElements(m.type(m.result(op)))) : 0;
        return out * window;
      }
    }
    return n;
  }
  default:
    return 0;
  }
}

}  // namespace autopart
