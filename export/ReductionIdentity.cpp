#include "export/ReductionIdentity.h"

#include <cstdint>

namespace autopart {

namespace {

enum class Extreme { Lowest, Highest };

// Float infinities by width, as MLIR prints them (hex bit patterns).
std::optional<std::string> infinity(uint32_t bits, Extreme e) {
  bool neg = e == Extreme::Lowest;
  switch (bits) {
  case 16:
    return neg ? "0xFC00" : "0x7C00";
  case 32:
    return neg ? "0xFF800000" : "0x7F800000";
  case 64:
    return neg ? "0xFFF0000000000000" : "0x7FF0000000000000";
  }
  return std::nullopt;
}

std::optional<std::string> extreme(const Module &m, TypeId element, Extreme e) {
  const TypeStorage &t = m.types.get(element);
  if (t.scalarClass == ScalarClass::Float) {
    if (m.types.str(element) == "bf16") return e == Extreme::Lowest ? "0xFF80" : "0x7F80";
    if (m.types.str(element) != "f16" && m.types.str(element) != "f32" && m.types.str(element) != "f64")
      return std::nullopt;
    return infinity(t.bits, e);
  }
  if (t.scalarClass == ScalarClass::Complex || t.scalarClass == ScalarClass::Index || t.bits == 0 ||
      t.bits > 64)
    return std::nullopt;
  if (t.bits == 1) return e == Extreme::Lowest ? "false" : "true";
  if (t.scalarClass == ScalarClass::UInt) {
    if (e == Extreme::Lowest) return "0";
    return t.bits == 64 ? "18446744073709551615" : std::to_string((uint64_t(1) << t.bits) - 1);
  }
  int64_t max = t.bits == 64 ? INT64_MAX : int64_t((uint64_t(1) << (t.bits - 1)) - 1);
  return e == Extreme::Lowest ? std::to_string(-max - 1) : std::to_string(max);
}

std::optional<ReductionIdentity> identityOf(const Module &m, std::string_view combiner, TypeId element) {
  const TypeStorage &t = m.types.get(element);
  bool isFloat = t.scalarClass == ScalarClass::Float || t.scalarClass == ScalarClass::Complex;
  auto zero = [&]() -> std::string {
    if (t.scalarClass == ScalarClass::Float) return "0.000000e+00";
    if (t.scalarClass == ScalarClass::Complex) return "(0.000000e+00,0.000000e+00)";
    return t.bits == 1 ? "false" : "0";
  };
  if (combiner == "stablehlo.add" || combiner == "stablehlo.subtract" || combiner == "stablehlo.or" ||
      combiner == "stablehlo.xor")
    return ReductionIdentity{zero(), true};
  if (combiner == "stablehlo.multiply") {
    if (t.scalarClass == ScalarClass::Float) return ReductionIdentity{"1.000000e+00", false};
    if (t.scalarClass == ScalarClass::Complex) return ReductionIdentity{"(1.000000e+00,0.000000e+00)", false};
    return ReductionIdentity{t.bits == 1 ? "true" : "1", false};
  }
  if (combiner == "stablehlo.and" && !isFloat) {
    // All bits set: `true`, the unsigned maximum, or -1.
    if (t.bits == 1) return ReductionIdentity{"true", false};
    if (t.scalarClass != ScalarClass::UInt) return ReductionIdentity{"-1", false};
    std::optional<std::string> all = extreme(m, element, Extreme::Highest);
    if (all) return ReductionIdentity{*all, false};
    return std::nullopt;
  }
  if (combiner == "stablehlo.maximum" || combiner == "stablehlo.minimum") {
    std::optional<std::string> v =
        extreme(m, element, combiner == "stablehlo.maximum" ? Extreme::Lowest : Extreme::Highest);
    if (v) return ReductionIdentity{*v, false};
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<ReductionIdentity>> reductionIdentities(const Module &m, OpId op) {
  uint32_t inputs = m.numOperands(op) / 2;
  if (m.numRegions(op) != 1 || inputs == 0) return std::nullopt;
  const Region &region = m.regions[m.region(op, 0)];
  if (region.blocks.size() != 1) return std::nullopt;
  const Block &body = m.blocks[region.blocks[0]];
  if (body.args.size() != 2 * inputs || body.ops.empty()) return std::nullopt;
  OpId ret = body.ops.back();
  if (m.numOperands(ret) != inputs) return std::nullopt;
  std::vector<ReductionIdentity> out;
  for (uint32_t j = 0; j < inputs; ++j) {
    OpId combine = m.definingOp(m.operand(ret, j));
    if (combine == kNone || m.numOperands(combine) != 2) return std::nullopt;
    ValueId a = m.operand(combine, 0), b = m.operand(combine, 1);
    ValueId acc = body.args[j], elem = body.args[inputs + j];
    if (!((a == acc && b == elem) || (a == elem && b == acc))) return std::nullopt;
    std::optional<ReductionIdentity> id =
        identityOf(m, m.opName(combine), m.types.elementType(m.type(m.operand(op, j))));
    if (!id) return std::nullopt;
    out.push_back(*id);
  }
  return out;
}

}  // namespace autopart
