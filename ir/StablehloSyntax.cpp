// Custom (pretty) forms of StableHLO ops, each parser beside its printer. The
// pretty keywords map to the ops' real attributes, so that a program reads the
// same in either form:
//
//   stablehlo.transpose %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
//     permutation = array<i64: 1, 0>
//   stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ...
//     dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1],
//                                            rhs_contracting_dimensions = [0]>
//   stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1]
//     dimensions = array<i64: 1>, plus a synthesized reducer region
//
// Ops without a pretty form in StableHLO (gather, scatter, sort, case, ...)
// are read and printed in the generic form by ir/Parser.cpp / ir/Printer.cpp.
#include <cstring>

#include "ir/OpSyntax.h"

namespace autopart {

namespace {

// --- Shared helpers ---------------------------------------------------------------

TypeId i64Type(Module &m) { return m.types.scalar("i64"); }

AttrId i64Array(Module &m, std::vector<int64_t> v) {
  return m.attrs.denseArray(i64Type(m), std::move(v));
}

std::vector<int64_t> intsOf(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
}

// `#stablehlo<name VALUE>` enum attributes.
AttrId enumAttr(Module &m, std::string_view kind, std::string_view value) {
  return m.attrs.opaque("#stablehlo<" + std::string(kind) + " " + std::string(value) + ">");
}

std::string_view enumValue(const Module &m, AttrId a) {
  const std::string &t = m.attrs.get(a).text;
  size_t sp = t.rfind(' ');
  if (sp == std::string::npos || t.empty()) return {};
  return std::string_view(t).substr(sp + 1, t.size() - sp - 2);
}

bool parseEnumWord(Parser &p, std::string_view &word) {
  word = p.parseBareId();
  if (word.empty()) return p.fail("expected enum value");
  return true;
}

// `, key = [..]` items after the operands, in any order the form allows.
bool parseKeywordIntList(Parser &p, OpState &st, std::string_view kw, std::string_view attrName) {
  std::vector<int64_t> v;
  if (!p.expectKeyword(kw) || !p.expect('=') || !p.parseIntList(v)) return false;
  p.addAttr(st, attrName, i64Array(p.m, std::move(v)));
  return true;
}

void printKeywordIntList(AsmPrinter &p, OpId op, std::string_view kw, std::string_view attrName) {
  p.out += ", ";
  p.out += kw;
  p.out += " = ";
  p.intList(intsOf(p.m, op, attrName));
}

// --- Same operands and result type: `op %a, %b attr-dict : t` ------------------------

bool parseSoart(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.parseSameOperandsAndResultType(st);
}

void printSoart(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  p.sameOperandsAndResultType(op);
}

// --- Functional type: `op %a, %b attr-dict : (ts) -> t` -------------------------------

bool parseFunctional(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printFunctional(AsmPrinter &p, OpId op) {
  if (p.m.numOperands(op)) p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  p.functionalType(op);
}

// `op %x, dims = [..] : (t) -> t` for broadcast_in_dim / transpose, and the
// same-type variant for reverse.
template <const char *kAttr, bool kSame>
bool parseDimsOp(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  if (!parseKeywordIntList(p, st, "dims", kAttr)) return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  if (kSame) return p.parseSameOperandsAndResultType(st);
  return p.expect(':') && p.parseFunctionalResultType(st);
}

template <const char *kAttr, bool kSame>
void printDimsOp(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printKeywordIntList(p, op, "dims", kAttr);
  p.attrDict(op, {kAttr});
  p.out += " : ";
  if (kSame)
    p.sameOperandsAndResultType(op);
  else
    p.functionalType(op);
}

constexpr char kBroadcastDims[] = "broadcast_dimensions";
constexpr char kPermutation[] = "permutation";
constexpr char kDimensions[] = "dimensions";

// --- constant ---------------------------------------------------------------------------

bool parseConstant(Parser &p, OpState &st) {
  if (p.consumeStr("()")) {
    // `stablehlo.constant() <{value = ...}> {attrs} : () -> type`.
    if (p.consumeStr("<")) {
      if (!p.parseAttrDict(st.attrs) || !p.expect('>')) return false;
    }
    if (!p.parseOptionalAttrDict(st.attrs)) return false;
    return p.expect(':') && p.parseFunctionalResultType(st);
  }
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  AttrId value;
  if (!p.parseAttr(value)) return false;
  const AttrStorage &a = p.m.attrs.get(value);
  if (a.type == kNoType || (a.kind != AttrKind::DenseElements && a.kind != AttrKind::Opaque &&
                            a.kind != AttrKind::Integer && a.kind != AttrKind::Float))
    return p.fail("expected typed constant value such as dense<...> : tensor<...>");
  p.addAttr(st, "value", value);
  st.resultTypes.push_back(a.type);
  return true;
}

void printConstant(AsmPrinter &p, OpId op) {
  AttrId value = p.m.attr(op, "value");
  if (value == kNoAttr || p.m.attrs.get(value).type != p.m.type(p.m.result(op))) {
    // The value's type is not the result's (quantized results): only the
    // functional form, with the value as a property, says both.
    p.out += "()";
    if (value != kNoAttr) {
      p.out += " <{value = ";
      p.attr(value);
      p.out += "}>";
    }
    p.attrDict(op, {"value"});
    p.out += " : () -> ";
    p.type(p.m.type(p.m.result(op)));
    return;
  }
  p.attrDict(op, {"value"});
  p.out += ' ';
  p.attr(p.m.attr(op, "value"));
}

// --- iota / partition_id / replica_id / after_all -------------------------------------------

bool parseIota(Parser &p, OpState &st) {
  int64_t dim;
  if (!p.expectKeyword("dim") || !p.expect('=') || !p.parseInt(dim)) return false;
  p.addAttr(st, "iota_dimension", p.m.attrs.integer(dim, i64Type(p.m)));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  TypeId t;
  if (!p.expect(':') || !p.parseType(t)) return false;
  st.resultTypes.push_back(t);
  return true;
}

void printIota(AsmPrinter &p, OpId op) {
  p.out += " dim = ";
  p.out += std::to_string(p.m.attrs.get(p.m.attr(op, "iota_dimension")).intValue);
  p.attrDict(op, {"iota_dimension"});
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

bool parseNullaryTyped(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  TypeId t;
  if (!p.expect(':') || !p.parseType(t)) return false;
  st.resultTypes.push_back(t);
  return true;
}

void printNullaryTyped(AsmPrinter &p, OpId op) {
  if (p.m.numOperands(op)) p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

// --- select: `: pred_type, result_type` -------------------------------------------------------

bool parseSelect(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.parseOptionalAttrDict(st.attrs)) return false;
  if (!p.expect(':')) return false;
  if (p.peek() == '(') return p.parseFunctionalResultType(st);
  std::vector<TypeId> ts;
  if (!p.parseTypeList(ts)) return false;
  if (ts.size() != 2) return p.fail("expected 'pred_type, result_type' after ':'");
  st.resultTypes.push_back(ts[1]);
  return true;
}

void printSelect(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  TypeId r = m.type(m.result(op));
  if (m.numOperands(op) == 3 && m.type(m.operand(op, 1)) == r && m.type(m.operand(op, 2)) == r) {
    p.type(m.type(m.operand(op, 0)));
    p.out += ", ";
    p.type(r);
    return;
  }
  p.functionalType(op);
}

// --- optimization_barrier: `attr-dict %a, %b : t1, t2` ------------------------------------------

bool parseOptBarrier(Parser &p, OpState &st) {
  if (!p.parseOptionalAttrDict(st.attrs) || !p.parseValueUseList(st.operands)) return false;
  if (st.operands.empty()) return true;
  if (!p.expect(':')) return false;
  if (p.peek() == '(') return p.parseFunctionalResultType(st);
  return p.parseTypeList(st.resultTypes);
}

void printOptBarrier(AsmPrinter &p, OpId op) {
  p.attrDict(op);
  if (p.m.numOperands(op) == 0) return;
  p.out += ' ';
  p.operands(op);
  p.out += " : ";
  p.valueTypes(p.m.operands(op));
}

// --- compare ------------------------------------------------------------------------------------

bool parseCompare(Parser &p, OpState &st) {
  std::string_view dir;
  if (!parseEnumWord(p, dir) || !p.expect(',')) return false;
  p.addAttr(st, "comparison_direction", enumAttr(p.m, "comparison_direction", dir));
  if (!p.parseValueUseList(st.operands)) return false;
  if (p.consumeIf(',')) {
    std::string_view type;
    if (!parseEnumWord(p, type)) return false;
    p.addAttr(st, "compare_type", enumAttr(p.m, "comparison_type", type));
  }
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printCompare(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += "  ";
  p.out += enumValue(m, m.attr(op, "comparison_direction"));
  p.out += ", ";
  p.operands(op);
  if (AttrId t = m.attr(op, "compare_type"); t != kNoAttr) {
    p.out += ",  ";
    p.out += enumValue(m, t);
  }
  p.attrDict(op, {"comparison_direction", "compare_type"});
  p.out += " : ";
  p.functionalType(op);
}

// --- slice: `%x [0:4, 1:8:2]` -----------------------------------------------------------------------

bool parseSlice(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect('[')) return false;
  std::vector<int64_t> start, limit, stride;
  if (!p.consumeIf(']')) {
    do {
      int64_t a, b, c = 1;
      if (!p.parseInt(a) || !p.expect(':') || !p.parseInt(b)) return false;
      if (p.consumeIf(':') && !p.parseInt(c)) return false;
      start.push_back(a);
      limit.push_back(b);
      stride.push_back(c);
    } while (p.consumeIf(','));
    if (!p.expect(']')) return false;
  }
  p.addAttr(st, "start_indices", i64Array(p.m, start));
  p.addAttr(st, "limit_indices", i64Array(p.m, limit));
  p.addAttr(st, "strides", i64Array(p.m, stride));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printSlice(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += ' ';
  p.operands(op);
  p.out += " [";
  std::vector<int64_t> a = intsOf(m, op, "start_indices"), b = intsOf(m, op, "limit_indices"),
                       c = intsOf(m, op, "strides");
  for (size_t i = 0; i < a.size(); ++i) {
    if (i) p.out += ", ";
    p.out += std::to_string(a[i]) + ":" + std::to_string(i < b.size() ? b[i] : 0);
    if (i < c.size() && c[i] != 1) p.out += ":" + std::to_string(c[i]);
  }
  p.out += ']';
  p.attrDict(op, {"start_indices", "limit_indices", "strides"});
  p.out += " : ";
  p.functionalType(op);
}

// --- concatenate / dynamic_slice / pad / fft / cholesky / get_tuple_element -----------------

bool parseConcatenate(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  int64_t dim;
  if (!p.expectKeyword("dim") || !p.expect('=') || !p.parseInt(dim)) return false;
  p.addAttr(st, "dimension", p.m.attrs.integer(dim, i64Type(p.m)));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printConcatenate(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", dim = " + std::to_string(p.m.attrs.get(p.m.attr(op, "dimension")).intValue);
  p.attrDict(op, {"dimension"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseDynamicSlice(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  if (!parseKeywordIntList(p, st, "sizes", "slice_sizes")) return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printDynamicSlice(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printKeywordIntList(p, op, "sizes", "slice_sizes");
  p.attrDict(op, {"slice_sizes"});
  p.out += " : ";
  p.functionalType(op);
}

bool parsePad(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  if (!parseKeywordIntList(p, st, "low", "edge_padding_low") || !p.expect(',') ||
      !parseKeywordIntList(p, st, "high", "edge_padding_high") || !p.expect(',') ||
      !parseKeywordIntList(p, st, "interior", "interior_padding"))
    return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printPad(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printKeywordIntList(p, op, "low", "edge_padding_low");
  printKeywordIntList(p, op, "high", "edge_padding_high");
  printKeywordIntList(p, op, "interior", "interior_padding");
  p.attrDict(op, {"edge_padding_low", "edge_padding_high", "interior_padding"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseFft(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  std::string_view type;
  if (!p.expectKeyword("type") || !p.expect('=') || !parseEnumWord(p, type) || !p.expect(','))
    return false;
  p.addAttr(st, "fft_type", enumAttr(p.m, "fft_type", type));
  if (!parseKeywordIntList(p, st, "length", "fft_length")) return false;
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printFft(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", type = ";
  p.out += enumValue(p.m, p.m.attr(op, "fft_type"));
  printKeywordIntList(p, op, "length", "fft_length");
  p.attrDict(op, {"fft_type", "fft_length"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseCholesky(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (p.consumeIf(',')) {
    AttrId lower;
    if (!p.expectKeyword("lower") || !p.expect('=') || !p.parseAttr(lower)) return false;
    p.addAttr(st, "lower", lower);
  }
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printCholesky(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  if (AttrId l = p.m.attr(op, "lower"); l != kNoAttr) {
    p.out += ", lower = ";
    p.attr(l);
  }
  p.attrDict(op, {"lower"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseGetTupleElement(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  int64_t index;
  if (!p.expect('[') || !p.parseInt(index) || !p.expect(']')) return false;
  p.addAttr(st, "index", p.m.attrs.integer(index, p.m.types.scalar("i32")));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printGetTupleElement(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += '[' + std::to_string(p.m.attrs.get(p.m.attr(op, "index")).intValue) + ']';
  p.attrDict(op, {"index"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseGetDimensionSize(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  int64_t dim;
  if (!p.expectKeyword("dim") || !p.expect('=') || !p.parseInt(dim)) return false;
  p.addAttr(st, "dimension", p.m.attrs.integer(dim, i64Type(p.m)));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printGetDimensionSize(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", dim = " + std::to_string(p.m.attrs.get(p.m.attr(op, "dimension")).intValue);
  p.attrDict(op, {"dimension"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseRngBitGenerator(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  std::string_view alg;
  if (!p.expectKeyword("algorithm") || !p.expect('=') || !parseEnumWord(p, alg)) return false;
  p.addAttr(st, "rng_algorithm", enumAttr(p.m, "rng_algorithm", alg));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printRngBitGenerator(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", algorithm =  ";
  p.out += enumValue(p.m, p.m.attr(op, "rng_algorithm"));
  p.attrDict(op, {"rng_algorithm"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseReducePrecision(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  if (!p.expectKeyword("format") || !p.expect('=')) return false;
  std::string_view fmt = p.parseBareId();  // e5m10
  size_t mpos = fmt.find('m');
  if (fmt.size() < 4 || fmt[0] != 'e' || mpos == std::string_view::npos)
    return p.fail("expected format like e5m10");
  int64_t e = std::atoll(std::string(fmt.substr(1, mpos - 1)).c_str());
  int64_t mant = std::atoll(std::string(fmt.substr(mpos + 1)).c_str());
  TypeId i32 = p.m.types.scalar("i32");
  p.addAttr(st, "exponent_bits", p.m.attrs.integer(e, i32));
  p.addAttr(st, "mantissa_bits", p.m.attrs.integer(mant, i32));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.parseSameOperandsAndResultType(st);
}

void printReducePrecision(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", format = e" + std::to_string(p.m.attrs.get(p.m.attr(op, "exponent_bits")).intValue) +
           "m" + std::to_string(p.m.attrs.get(p.m.attr(op, "mantissa_bits")).intValue);
  p.attrDict(op, {"exponent_bits", "mantissa_bits"});
  p.out += " : ";
  p.sameOperandsAndResultType(op);
}

// --- dot / dot_general ----------------------------------------------------------------------

bool parsePrecision(Parser &p, OpState &st) {
  if (!p.expect('=') || !p.expect('[')) return false;
  std::vector<AttrId> list;
  if (!p.consumeIf(']')) {
    do {
      std::string_view v;
      if (!parseEnumWord(p, v)) return false;
      list.push_back(enumAttr(p.m, "precision", v));
    } while (p.consumeIf(','));
    if (!p.expect(']')) return false;
  }
  p.addAttr(st, "precision_config", p.m.attrs.array(list));
  return true;
}

void printPrecision(AsmPrinter &p, OpId op) {
  AttrId pc = p.m.attr(op, "precision_config");
  if (pc == kNoAttr) return;
  const AttrStorage &a = p.m.attrs.get(pc);
  if (a.kind != AttrKind::Array) return;
  p.out += ", precision = [";
  for (size_t i = 0; i < a.elems.size(); ++i) {
    if (i) p.out += ", ";
    p.out += enumValue(p.m, a.elems[i]);
  }
  p.out += ']';
}

bool parseDot(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (p.consumeIf(',')) {
    if (!p.expectKeyword("precision") || !parsePrecision(p, st)) return false;
  }
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printDot(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printPrecision(p, op);
  p.attrDict(op, {"precision_config"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseDotGeneral(Parser &p, OpState &st) {
  Module &m = p.m;
  if (!p.parseValueUseList(st.operands)) return false;
  std::vector<int64_t> lb, rb, lc, rc;
  while (p.consumeIf(',')) {
    if (p.consumeKeyword("batching_dims")) {
      if (!p.expect('=') || !p.parseIntList(lb) || !p.expectKeyword("x") || !p.parseIntList(rb))
        return false;
    } else if (p.consumeKeyword("contracting_dims")) {
      if (!p.expect('=') || !p.parseIntList(lc) || !p.expectKeyword("x") || !p.parseIntList(rc))
        return false;
    } else if (p.consumeKeyword("precision")) {
      if (!parsePrecision(p, st)) return false;
    } else if (p.consumeKeyword("algorithm")) {
      AttrId alg;
      if (!p.expect('=')) return false;
      p.skipWs();
      if (p.peek() == '<') {
        // `algorithm = <lhs_precision_type = ...>`: the body of #stablehlo.dot_algorithm.
        const char *s = p.pos();
        p.setPos(s + 1);
        std::string_view inner;
        if (!p.skipBalanced('<', inner)) return false;
        alg = m.attrs.opaque("#stablehlo.dot_algorithm<" + std::string(inner) + ">");
      } else if (!p.parseAttr(alg)) {
        return false;
      }
      p.addAttr(st, "algorithm", alg);
    } else {
      return p.fail("expected 'batching_dims', 'contracting_dims', 'precision' or 'algorithm'");
    }
  }
  std::vector<std::pair<NameId, AttrId>> dn;
  auto add = [&](const char *key, const std::vector<int64_t> &v) {
    if (v.empty()) return;
    std::vector<AttrId> elems;
    for (int64_t x : v) elems.push_back(m.attrs.integer(x));
    dn.push_back({m.names.get(key), m.attrs.array(elems)});
  };
  add("lhs_batching_dimensions", lb);
  add("rhs_batching_dimensions", rb);
  add("lhs_contracting_dimensions", lc);
  add("rhs_contracting_dimensions", rc);
  p.addAttr(st, "dot_dimension_numbers", m.attrs.dialectStruct("stablehlo.dot", std::move(dn)));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printDotGeneral(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += ' ';
  p.operands(op);
  AttrId dn = m.attr(op, "dot_dimension_numbers");
  auto list = [&](const char *key) {
    AttrId a = m.attrs.field(dn, key);
    return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
  };
  std::vector<int64_t> lb = list("lhs_batching_dimensions"), rb = list("rhs_batching_dimensions");
  if (!lb.empty() || !rb.empty()) {
    p.out += ", batching_dims = ";
    p.intList(lb);
    p.out += " x ";
    p.intList(rb);
  }
  p.out += ", contracting_dims = ";
  p.intList(list("lhs_contracting_dimensions"));
  p.out += " x ";
  p.intList(list("rhs_contracting_dimensions"));
  printPrecision(p, op);
  if (AttrId alg = m.attr(op, "algorithm"); alg != kNoAttr) {
    const std::string &t = m.attrs.get(alg).text;
    constexpr std::string_view kPrefix = "#stablehlo.dot_algorithm";
    p.out += ", algorithm = ";
    if (std::string_view(t).starts_with(kPrefix))
      p.out += std::string_view(t).substr(kPrefix.size());
    else
      p.out += t;
  }
  p.attrDict(op, {"dot_dimension_numbers", "precision_config", "algorithm"});
  p.out += " : ";
  p.functionalType(op);
}

// --- convolution ---------------------------------------------------------------------------

bool parseConvolution(Parser &p, OpState &st) {
  Module &m = p.m;
  if (!p.expect('(') || !p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  if (!p.expectKeyword("dim_numbers") || !p.expect('=')) return false;
  p.skipWs();
  // `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` up to the next top-level ','.
  const char *s = p.pos();
  const char *q = s;
  int depth = 0;
  while (*q && !(depth == 0 && *q == ',')) {
    if (*q == '[') ++depth;
    if (*q == ']') --depth;
    if (*q == '\n' || *q == '{' || *q == ':') return p.failAt(q, "malformed convolution dim_numbers");
    ++q;
  }
  std::string dims(s, size_t(q - s));
  while (!dims.empty() && dims.back() == ' ') dims.pop_back();
  p.addAttr(st, "dimension_numbers", m.attrs.opaque("#stablehlo.conv<" + dims + ">"));
  p.setPos(q);
  if (!p.expect(',') || !p.expectKeyword("window") || !p.expect('=') || !p.expect('{'))
    return false;
  if (!p.consumeIf('}')) {
    do {
      std::string_view key = p.parseBareId();
      if (!p.expect('=')) return false;
      if (key == "stride" || key == "lhs_dilate" || key == "rhs_dilate") {
        std::vector<int64_t> v;
        if (!p.parseIntList(v)) return false;
        const char *name = key == "stride" ? "window_strides" : key == "lhs_dilate" ? "lhs_dilation" : "rhs_dilation";
        p.addAttr(st, name, i64Array(m, std::move(v)));
      } else if (key == "reverse") {
        std::vector<int64_t> v;
        if (!p.expect('[')) return false;
        if (!p.consumeIf(']')) {
          do {
            if (p.consumeKeyword("true")) v.push_back(1);
            else if (p.consumeKeyword("false")) v.push_back(0);
            else {
              int64_t x;
              if (!p.parseInt(x)) return false;
              v.push_back(x != 0);
            }
          } while (p.consumeIf(','));
          if (!p.expect(']')) return false;
        }
        p.addAttr(st, "window_reversal", m.attrs.denseArray(m.types.scalar("i1"), std::move(v)));
      } else if (key == "pad") {
        if (!p.expect('[')) return false;
        std::vector<int64_t> flat;
        size_t rows = 0;
        if (!p.consumeIf(']')) {
          do {
            std::vector<int64_t> pair;
            if (!p.parseIntList(pair)) return false;
            if (pair.size() != 2) return p.fail("expected [low, high] padding pair");
            flat.insert(flat.end(), pair.begin(), pair.end());
            ++rows;
          } while (p.consumeIf(','));
          if (!p.expect(']')) return false;
        }
        std::string body = "[";
        for (size_t r = 0; r < rows; ++r) {
          if (r) body += ", ";
          body += "[" + std::to_string(flat[2 * r]) + ", " + std::to_string(flat[2 * r + 1]) + "]";
        }
        body += "]";
        TypeId t = m.types.tensor({int64_t(rows), 2}, i64Type(m));
        p.addAttr(st, "padding", m.attrs.denseElementsOwned("dense", body, t));
      } else {
        return p.fail("unknown convolution window field '" + std::string(key) + "'");
      }
    } while (p.consumeIf(','));
    if (!p.expect('}')) return false;
  }
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printConvolution(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += '(';
  p.operands(op);
  p.out += ") dim_numbers = ";
  const std::string &dn = m.attrs.get(m.attr(op, "dimension_numbers")).text;
  constexpr std::string_view kPrefix = "#stablehlo.conv<";
  if (std::string_view(dn).starts_with(kPrefix))
    p.out += std::string_view(dn).substr(kPrefix.size(), dn.size() - kPrefix.size() - 1);
  else
    p.out += dn;
  p.out += ", window = {";
  bool first = true;
  auto sep = [&] {
    if (!first) p.out += ", ";
    first = false;
  };
  if (m.hasAttr(op, "window_strides")) {
    sep();
    p.out += "stride = ";
    p.intList(intsOf(m, op, "window_strides"));
  }
  if (AttrId pad = m.attr(op, "padding"); pad != kNoAttr) {
    sep();
    p.out += "pad = ";
    const AttrStorage &a = m.attrs.get(pad);
    if (a.kind == AttrKind::DenseElements) {
      std::string_view body = a.body;
      // A splat `dense<0>` stands for all-zero pairs.
      if (!body.empty() && body[0] != '[') {
        int64_t rows = m.types.shape(a.type).empty() ? 0 : m.types.shape(a.type)[0];
        std::string v(body);
        p.out += '[';
        for (int64_t r = 0; r < rows; ++r) p.out += (r ? ", [" : "[") + v + ", " + v + "]";
        p.out += ']';
      } else {
        p.out += body;
      }
    }
  }
  if (m.hasAttr(op, "lhs_dilation")) {
    sep();
    p.out += "lhs_dilate = ";
    p.intList(intsOf(m, op, "lhs_dilation"));
  }
  if (m.hasAttr(op, "rhs_dilation")) {
    sep();
    p.out += "rhs_dilate = ";
    p.intList(intsOf(m, op, "rhs_dilation"));
  }
  if (m.hasAttr(op, "window_reversal")) {
    sep();
    p.out += "reverse = [";
    std::vector<int64_t> v = intsOf(m, op, "window_reversal");
    for (size_t i = 0; i < v.size(); ++i) p.out += std::string(i ? ", " : "") + (v[i] ? "true" : "false");
    p.out += ']';
  }
  p.out += '}';
  p.attrDict(op, {"dimension_numbers", "window_strides", "padding", "lhs_dilation", "rhs_dilation",
                  "window_reversal"});
  p.out += " : ";
  p.functionalType(op);
}

// --- custom_call / composite --------------------------------------------------------------

bool isBareSymbol(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '-'))
      return false;
  return !(s[0] >= '0' && s[0] <= '9');
}

bool parseCustomCall(Parser &p, OpState &st) {
  std::string_view target;
  if (!p.parseSymbolName(target)) return false;
  p.addAttr(st, "call_target_name", p.m.attrs.string(target));
  if (!p.expect('(')) return false;
  if (!p.consumeIf(')')) {
    if (!p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  }
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printCustomCall(AsmPrinter &p, OpId op) {
  std::string_view target = p.m.attrs.stringValue(p.m.attr(op, "call_target_name"));
  p.out += " @";
  if (isBareSymbol(target)) {
    p.out += target;
  } else {
    p.out += '"';
    p.out += target;
    p.out += '"';
  }
  p.out += '(';
  p.operands(op);
  p.out += ')';
  p.attrDict(op, {"call_target_name"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseComposite(Parser &p, OpState &st) {
  std::string_view name;
  if (!p.parseStringLiteral(name)) return false;
  p.addAttr(st, "name", p.m.attrs.string(name));
  if (!p.parseValueUseList(st.operands) || !p.parseOptionalAttrDict(st.attrs)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printComposite(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.attr(p.m.attr(op, "name"));
  if (p.m.numOperands(op)) p.out += ' ';
  p.operands(op);
  p.attrDict(op, {"name"});
  p.out += " : ";
  p.functionalType(op);
}

// --- while ---------------------------------------------------------------------------------

bool parseWhile(Parser &p, OpState &st) {
  if (!p.expect('(')) return false;
  std::vector<OpState::Arg> args;
  if (!p.consumeIf(')')) {
    do {
      OpState::Arg a;
      ValueId v;
      if (!p.parseValueDefName(a.name) || !p.expect('=') || !p.parseValueUse(v)) return false;
      st.operands.push_back(v);
      args.push_back(a);
    } while (p.consumeIf(','));
    if (!p.expect(')')) return false;
  }
  if (!st.operands.empty()) {
    if (!p.expect(':')) return false;
    std::vector<TypeId> ts;
    if (!p.parseTypeList(ts)) return false;
    if (ts.size() != st.operands.size()) return p.fail("while has a different number of types and operands");
    for (size_t i = 0; i < ts.size(); ++i) args[i].type = ts[i];
    st.resultTypes = ts;
  }
  if (p.consumeKeyword("attributes")) {
    if (!p.parseAttrDict(st.attrs)) return false;
  }
  RegionId cond, body;
  if (!p.expectKeyword("cond") || !p.parseRegion(cond, args)) return false;
  if (!p.expectKeyword("do") || !p.parseRegion(body, args)) return false;
  st.regions = {cond, body};
  return true;
}

void printWhile(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += '(';
  BlockId condEntry = m.regions[m.region(op, 0)].blocks.empty() ? kNone : m.regions[m.region(op, 0)].blocks[0];
  for (uint32_t i = 0; i < m.numOperands(op); ++i) {
    if (i) p.out += ", ";
    if (condEntry != kNone && i < m.blocks[condEntry].args.size())
      p.value(m.blocks[condEntry].args[i]);
    else
      p.out += "%iterArg";
    p.out += " = ";
    p.value(m.operand(op, i));
  }
  p.out += ')';
  if (m.numOperands(op)) {
    p.out += " : ";
    p.valueTypes(m.operands(op));
  }
  bool hasAttrs = m.ops[op].numAttrs > 0;
  if (hasAttrs) {
    p.out += " attributes";
    p.attrDict(op);
  }
  p.newline();
  p.out += " cond ";
  p.region(m.region(op, 0), false);
  p.out += " do ";
  p.region(m.region(op, 1), false);
}

// --- reduce --------------------------------------------------------------------------------

// The body of `applies stablehlo.add`: (a, b) -> add(a, b) on scalars.
constexpr std::string_view kCompactReducers[] = {
    "stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.and", "stablehlo.or",       "stablehlo.xor"};

bool parseReduce(Parser &p, OpState &st) {
  Module &m = p.m;
  std::vector<ValueId> inputs, inits;
  do {
    ValueId in, init;
    if (!p.expect('(') || !p.parseValueUse(in) || !p.expectKeyword("init") || !p.expect(':') ||
        !p.parseValueUse(init) || !p.expect(')'))
      return false;
    inputs.push_back(in);
    inits.push_back(init);
  } while (p.consumeIf(','));
  st.operands = inputs;
  st.operands.insert(st.operands.end(), inits.begin(), inits.end());
  std::string reducer;
  if (p.consumeKeyword("applies")) {
    std::string_view name = p.parseBareId();
    if (name.empty()) return p.fail("expected reducer op name after 'applies'");
    reducer = std::string(name);
  }
  if (!p.expectKeyword("across") || !p.expectKeyword("dimensions") || !p.expect('=')) return false;
  std::vector<int64_t> dims;
  if (!p.parseIntList(dims)) return false;
  p.addAttr(st, "dimensions", i64Array(m, dims));
  if (!p.parseOptionalAttrDict(st.attrs)) return false;
  if (!p.expect(':') || !p.parseFunctionalResultType(st)) return false;
  if (!reducer.empty()) {
    RegionId r = m.createRegion();
    BlockId b = m.createBlock(r);
    std::vector<ValueId> lhs, rhs;
    for (ValueId init : inits) lhs.push_back(m.addBlockArg(b, m.type(init)));
    for (ValueId init : inits) rhs.push_back(m.addBlockArg(b, m.type(init)));
    std::vector<ValueId> rets;
    for (size_t i = 0; i < inits.size(); ++i) {
      OpId body = m.createOp(reducer, {lhs[i], rhs[i]}, {m.type(inits[i])});
      m.ops[body].srcOffset = p.offset();
      m.insertOp(b, body);
      rets.push_back(m.result(body));
    }
    OpId ret = m.createOp("stablehlo.return", rets, {});
    m.insertOp(b, ret);
    st.regions.push_back(r);
    return true;
  }
  // reducer(%a: t, %c: t) (%b: t, %d: t) { ... }: pairs (lhs_i, rhs_i).
  if (!p.expectKeyword("reducer")) return false;
  std::vector<OpState::Arg> lhs, rhs;
  while (p.peek() == '(') {
    p.consumeIf('(');
    OpState::Arg a, b;
    if (!p.parseValueDefName(a.name) || !p.expect(':') || !p.parseType(a.type) ||
        !p.parseOptionalLoc(a.loc) || !p.expect(',') || !p.parseValueDefName(b.name) ||
        !p.expect(':') || !p.parseType(b.type) || !p.parseOptionalLoc(b.loc) || !p.expect(')'))
      return false;
    lhs.push_back(a);
    rhs.push_back(b);
  }
  if (lhs.size() != inputs.size()) return p.fail("reducer needs one argument pair per input");
  std::vector<OpState::Arg> args = lhs;
  args.insert(args.end(), rhs.begin(), rhs.end());
  RegionId r;
  if (!p.parseRegion(r, args)) return false;
  st.regions.push_back(r);
  return true;
}

// The reducer op when the body is exactly `op(arg0, arg1); return`, so the
// compact `applies op` form prints it.
std::string_view compactReducer(const Module &m, OpId reduce) {
  if (m.numOperands(reduce) != 2 || m.numRegions(reduce) != 1) return {};
  const Region &r = m.regions[m.region(reduce, 0)];
  if (r.blocks.size() != 1) return {};
  const Block &b = m.blocks[r.blocks[0]];
  if (b.ops.size() != 2 || b.args.size() != 2) return {};
  OpId body = b.ops[0], ret = b.ops[1];
  std::string_view name = m.opName(body);
  bool known = false;
  for (std::string_view k : kCompactReducers) known |= k == name;
  if (!known || !m.isa(ret, "stablehlo.return") || m.ops[body].numAttrs != 0) return {};
  if (m.numOperands(body) != 2 || m.operand(body, 0) != b.args[0] || m.operand(body, 1) != b.args[1])
    return {};
  if (m.numOperands(ret) != 1 || m.operand(ret, 0) != m.result(body)) return {};
  TypeId t = m.type(b.args[0]);
  if (m.type(b.args[1]) != t || m.type(m.result(body)) != t) return {};
  if (m.types.rank(t) != 0 || m.type(m.operand(reduce, 1)) != t) return {};
  return name;
}

void printReduce(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  uint32_t n = m.numOperands(op) / 2;
  for (uint32_t i = 0; i < n; ++i) {
    p.out += i ? ", (" : "(";
    p.value(m.operand(op, i));
    p.out += " init: ";
    p.value(m.operand(op, n + i));
    p.out += ')';
  }
  std::string_view compact = compactReducer(m, op);
  if (!compact.empty()) {
    p.out += " applies ";
    p.out += compact;
  }
  p.out += " across dimensions = ";
  p.intList(intsOf(m, op, "dimensions"));
  p.attrDict(op, {"dimensions"});
  p.out += " : ";
  p.functionalType(op);
  if (!compact.empty()) return;
  const Region &r = m.regions[m.region(op, 0)];
  if (r.blocks.empty()) return;
  const Block &b = m.blocks[r.blocks[0]];
  p.newline();
  p.out += " reducer";
  for (uint32_t i = 0; i < n && n + i < b.args.size(); ++i) {
    p.out += '(';
    p.value(b.args[i]);
    p.out += ": ";
    p.type(m.type(b.args[i]));
    p.out += ", ";
    p.value(b.args[n + i]);
    p.out += ": ";
    p.type(m.type(b.args[n + i]));
    p.out += ") ";
  }
  p.region(m.region(op, 0), false);
}

#define SOART(name) {"stablehlo." name, {parseSoart, printSoart}}
#define FUNCTIONAL(name) {"stablehlo." name, {parseFunctional, printFunctional}}

const OpSyntaxEntry kEntries[] = {
    SOART("abs"), SOART("add"), SOART("and"), SOART("atan2"), SOART("cbrt"), SOART("ceil"),
    SOART("clamp"), SOART("complex"), SOART("convert"), SOART("cosine"),
    SOART("count_leading_zeros"), SOART("divide"), SOART("exponential"),
    SOART("exponential_minus_one"), SOART("floor"), SOART("imag"), SOART("is_finite"),
    SOART("log"), SOART("log_plus_one"), SOART("logistic"), SOART("maximum"), SOART("minimum"),
    SOART("multiply"), SOART("negate"), SOART("not"), SOART("or"), SOART("popcnt"),
    SOART("power"), SOART("real"), SOART("remainder"), SOART("round_nearest_afz"),
    SOART("round_nearest_even"), SOART("rsqrt"), SOART("shift_left"),
    SOART("shift_right_arithmetic"), SOART("shift_right_logical"), SOART("sign"), SOART("sine"),
    SOART("sqrt"), SOART("subtract"), SOART("tan"), SOART("tanh"), SOART("xor"),
    FUNCTIONAL("reshape"), FUNCTIONAL("bitcast_convert"), FUNCTIONAL("dynamic_update_slice"),
    FUNCTIONAL("dynamic_reshape"), FUNCTIONAL("dynamic_broadcast_in_dim"),
    {"stablehlo.get_dimension_size", {parseGetDimensionSize, printGetDimensionSize}},
    FUNCTIONAL("uniform_quantize"),
    FUNCTIONAL("uniform_dequantize"),
    {"stablehlo.broadcast_in_dim", {parseDimsOp<kBroadcastDims, false>, printDimsOp<kBroadcastDims, false>}},
    {"stablehlo.transpose", {parseDimsOp<kPermutation, false>, printDimsOp<kPermutation, false>}},
    {"stablehlo.reverse", {parseDimsOp<kDimensions, true>, printDimsOp<kDimensions, true>}},
    {"stablehlo.constant", {parseConstant, printConstant}},
    // arith.constant appears in torch exports with the same form.
    {"arith.constant", {parseConstant, printConstant}},
    {"stablehlo.iota", {parseIota, printIota}},
    {"stablehlo.partition_id", {parseNullaryTyped, printNullaryTyped}},
    {"stablehlo.replica_id", {parseNullaryTyped, printNullaryTyped}},
    {"stablehlo.after_all", {parseNullaryTyped, printNullaryTyped}},
    {"stablehlo.tuple", {parseNullaryTyped, printNullaryTyped}},
    {"stablehlo.select", {parseSelect, printSelect}},
    {"stablehlo.optimization_barrier", {parseOptBarrier, printOptBarrier}},
    {"stablehlo.compare", {parseCompare, printCompare}},
    {"stablehlo.slice", {parseSlice, printSlice}},
    {"stablehlo.concatenate", {parseConcatenate, printConcatenate}},
    {"stablehlo.dynamic_slice", {parseDynamicSlice, printDynamicSlice}},
    {"stablehlo.pad", {parsePad, printPad}},
    {"stablehlo.fft", {parseFft, printFft}},
    {"stablehlo.cholesky", {parseCholesky, printCholesky}},
    {"stablehlo.get_tuple_element", {parseGetTupleElement, printGetTupleElement}},
    {"stablehlo.rng_bit_generator", {parseRngBitGenerator, printRngBitGenerator}},
    {"stablehlo.reduce_precision", {parseReducePrecision, printReducePrecision}},
    {"stablehlo.dot", {parseDot, printDot}},
    {"stablehlo.dot_general", {parseDotGeneral, printDotGeneral}},
    {"stablehlo.convolution", {parseConvolution, printConvolution}},
    {"stablehlo.custom_call", {parseCustomCall, printCustomCall}},
    {"stablehlo.composite", {parseComposite, printComposite}},
    {"stablehlo.while", {parseWhile, printWhile}},
    {"stablehlo.reduce", {parseReduce, printReduce}},
    {"stablehlo.return", {parseTerminator, printTerminator}},
};

#undef SOART
#undef FUNCTIONAL

}  // namespace

std::span<const OpSyntaxEntry> stablehloSyntaxTable() { return kEntries; }

}  // namespace autopart
