// Custom forms of the CHLO ops JAX emits beside StableHLO (chlo.erf,
// chlo.top_k, the broadcasting binary ops), read into their operands, result
// types and attributes rather than kept as text:
//
//   %1 = chlo.erf %0 : tensor<20x20xf32> -> tensor<20x20xf32>
//   %v, %i = chlo.top_k(%0, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
//     k = 2 : i64
//   %2 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//   %3 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
//   %4:2 = chlo.scan(%x) inits(%c) dimension=0 { ^bb0(...): ... } : (...) -> (...)
#include "asm/OpSyntax.h"
#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

namespace {

// `%x attr-dict : t -> r`
bool parseUnary(Parser &p, OpState &st) {
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  if (!p.parseOpAttrDict(st)) return false;
  TypeId in, out;
  if (!p.expect(':') || !p.parseType(in) || !p.expectStr("->") || !p.parseType(out)) return false;
  st.resultTypes.push_back(out);
  return true;
}

void printUnary(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  p.valueTypes(p.m.operands(op));
  p.out += " -> ";
  p.type(p.m.type(p.m.result(op)));
}

// `%x, %y attr-dict : t1, t2 -> r` (next_after, polygamma, zeta); printUnary
// writes it, its operand types being a list.
bool parseTypeListArrow(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.parseOpAttrDict(st)) return false;
  std::vector<TypeId> ins;
  TypeId out;
  if (!p.expect(':') || !p.parseTypeList(ins) || !p.expectStr("->") || !p.parseType(out)) return false;
  if (ins.size() != st.operands.size())
    return p.fail("expected " + std::to_string(st.operands.size()) + " operand types");
  st.resultTypes.push_back(out);
  return true;
}


// `(%x, k = N) attr-dict : t -> (values, indices)`
bool parseTopK(Parser &p, OpState &st) {
  ValueId v;
  int64_t k;
  if (!p.expect('(') || !p.parseValueUse(v) || !p.expect(',') || !p.expectKeyword("k") ||
      !p.expect('=') || !p.parseInt(k) || !p.expect(')'))
    return false;
  st.operands.push_back(v);
  p.addAttr(st, "k", p.m.attrs.integer(k, i64Type(p.m)));
  if (!p.parseOpAttrDict(st)) return false;
  TypeId in, values, indices;
  if (!p.expect(':') || !p.parseType(in) || !p.expectStr("->") || !p.expect('(') ||
      !p.parseType(values) || !p.expect(',') || !p.parseType(indices) || !p.expect(')'))
    return false;
  st.resultTypes = {values, indices};
  return true;
}

void printTopK(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += '(';
  p.operands(op);
  p.out += ", k = " + std::to_string(m.attrs.get(m.attr(op, "k")).intValue) + ')';
  p.attrDict(op, {"k"});
  p.out += " : ";
  p.valueTypes(m.operands(op));
  p.out += " -> (";
  std::vector<TypeId> results{m.type(m.result(op, 0)), m.type(m.result(op, 1))};
  p.typeList(results);
  p.out += ')';
}

// `(%xs) inits(%cs) dimension=N [attributes {..}] { ^bb0(...): ... } : (ts) -> (rs)`:
// the inputs then the carried values, split by operandSegmentSizes as MLIR
// records it.
bool parseScan(Parser &p, OpState &st) {
  std::vector<ValueId> inputs, inits;
  if (!p.expect('(') || !p.parseValueUseList(inputs) || !p.expect(')')) return false;
  if (!p.expectKeyword("inits") || !p.expect('(') || !p.parseValueUseList(inits) || !p.expect(')'))
    return false;
  int64_t dim;
  if (!p.expectKeyword("dimension") || !p.expect('=') || !p.parseInt(dim)) return false;
  st.operands = inputs;
  st.operands.insert(st.operands.end(), inits.begin(), inits.end());
  p.addAttr(st, "dimension", p.m.attrs.integer(dim, i64Type(p.m)));
  p.addAttr(st, "operandSegmentSizes",
            p.m.attrs.denseArray(p.m.types.scalar("i32"),
                                 {int64_t(inputs.size()), int64_t(inits.size())}));
  if (!p.parseOpAttrDict(st, "attributes")) return false;
  RegionId body;
  if (!p.parseRegion(body)) return false;
  st.regions.push_back(body);
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printScan(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  std::vector<int64_t> segments = intsOf(m, op, "operandSegmentSizes");
  size_t numInputs = segments.size() == 2 ? size_t(segments[0]) : m.numOperands(op) / 2;
  std::span<const ValueId> operands = m.operands(op);
  p.out += '(';
  p.valueList(operands.subspan(0, numInputs));
  p.out += ") inits(";
  p.valueList(operands.subspan(numInputs));
  p.out += ") dimension=" + std::to_string(m.attrs.get(m.attr(op, "dimension")).intValue);
  size_t before = p.out.size();
  p.attrDict(op, {"dimension", "operandSegmentSizes"});
  if (p.out.size() > before) p.out.insert(before, " attributes");
  p.out += ' ';
  p.region(m.region(op, 0), true);
  p.out += " : ";
  p.functionalType(op);
}

#define UNARY(name) {"chlo." name, {parseUnary, printUnary}}
#define BROADCAST(name) {"chlo.broadcast_" name, {parseFunctional, printFunctional}}
#define TYPE_LIST(name) {"chlo." name, {parseTypeListArrow, printUnary}}

const OpSyntaxEntry kEntries[] = {
    UNARY("acos"), UNARY("acosh"), UNARY("asin"), UNARY("asinh"), UNARY("atan"), UNARY("atanh"),
    UNARY("bessel_i1e"), UNARY("conj"), UNARY("cosh"), UNARY("sinh"), UNARY("tan"),
    UNARY("digamma"), UNARY("erf"), UNARY("erf_inv"), UNARY("erfc"), UNARY("is_inf"),
    UNARY("is_neg_inf"), UNARY("is_pos_inf"), UNARY("lgamma"), UNARY("square"),
    BROADCAST("add"), BROADCAST("atan2"), BROADCAST("divide"), BROADCAST("maximum"),
    BROADCAST("minimum"), BROADCAST("multiply"), BROADCAST("next_after"), BROADCAST("polygamma"),
    BROADCAST("power"), BROADCAST("remainder"), BROADCAST("shift_left"),
    BROADCAST("shift_right_arithmetic"), BROADCAST("shift_right_logical"), BROADCAST("subtract"),
    BROADCAST("zeta"), BROADCAST("and"), BROADCAST("or"), BROADCAST("xor"), BROADCAST("complex"),
    BROADCAST("compare"), BROADCAST("select"),
    TYPE_LIST("next_after"), TYPE_LIST("polygamma"), TYPE_LIST("zeta"),
    {"chlo.top_k", {parseTopK, printTopK}},
    {"chlo.scan", {parseScan, printScan}},
};

#undef UNARY
#undef BROADCAST
#undef TYPE_LIST

}  // namespace

std::span<const OpSyntaxEntry> chloSyntaxTable() { return kEntries; }

}  // namespace autopart
