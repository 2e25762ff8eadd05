// Custom (pretty) forms of the StableHLO elementwise, shape and data-movement
// ops, each parser beside its printer. The pretty keywords map to the ops' real
// attributes, so that a program reads the same in either form:
//
//   stablehlo.transpose %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
//     permutation = array<i64: 1, 0>
//   stablehlo.slice %x [0:4, 1:8:2] : (tensor<4x8xf32>) -> tensor<4x4xf32>
//     start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 8>,
//     strides = array<i64: 1, 2>
//
// The other families are beside it: the dimension-number syntax of dot,
// dot_general and convolution in StablehloContractionSyntax.cpp, the ops that
// run other computations (custom_call, composite, while, reduce) in
// StablehloRegionSyntax.cpp, the helpers they share in StablehloSyntaxHelpers.h.
// Ops without a pretty form in StableHLO (gather, scatter, sort, case, ...)
// are read and printed in the generic form by asm/Parser.cpp / asm/Printer.cpp.
#include <cstdlib>

#include "asm/OpSyntax.h"
#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

namespace {

// --- Same operands and result type: `op %a, %b attr-dict : t` ------------------------

bool parseSoart(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (!p.parseOpAttrDict(st)) return false;
  return p.parseSameOperandsAndResultType(st);
}

void printSoart(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  p.sameOperandsAndResultType(op);
}

constexpr char kDimsKeyword[] = "dims";
constexpr char kSizesKeyword[] = "sizes";

// `op %x, dims = [..] : (t) -> t` for broadcast_in_dim / transpose, and the
// same-type variant for reverse.
// `dynamic_broadcast_in_dim %x, %shape, dims = [..]` reads the same way (the
// value list stops at `, dims`), and `broadcast %x, sizes = [..]` with its keyword.
template <const char *kAttr, bool kSame, const char *kKeyword = kDimsKeyword>
bool parseDimsOp(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  if (!parseKeywordIntList(p, st, kKeyword, kAttr)) return false;
  if (!p.parseOpAttrDict(st)) return false;
  if (kSame) return p.parseSameOperandsAndResultType(st);
  return p.expect(':') && p.parseFunctionalResultType(st);
}

template <const char *kAttr, bool kSame, const char *kKeyword = kDimsKeyword>
void printDimsOp(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printKeywordIntList(p, op, kKeyword, kAttr);
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
constexpr char kDimension[] = "dimension";
constexpr char kIotaDimension[] = "iota_dimension";
constexpr char kBroadcastSizes[] = "broadcast_sizes";

// --- constant ---------------------------------------------------------------------------

bool parseConstant(Parser &p, OpState &st) {
  if (p.consumeStr("()")) {
    // `stablehlo.constant() <{value = ...}> {attrs} : () -> type`.
    if (p.consumeStr("<")) {
      if (!p.parseAttrDict(st.attrs) || !p.expect('>')) return false;
    }
    if (!p.parseOpAttrDict(st)) return false;
    return p.expect(':') && p.parseFunctionalResultType(st);
  }
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseValueUseList(st.operands) || !p.parseOpAttrDict(st)) return false;
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

// --- optimization_barrier: `attr-dict %a, %b : t1, t2` (printed as terminators are) ------------------------------------

// Without operands it is `stablehlo.optimization_barrier()`: a bare name would
// take the next line's `%x` for an operand.
bool parseOptBarrier(Parser &p, OpState &st) {
  if (!p.parseOpAttrDict(st)) return false;
  if (p.consumeStr("()")) return true;
  if (!p.parseValueUseList(st.operands)) return false;
  if (st.operands.empty()) return true;
  if (!p.expect(':')) return false;
  if (p.peek() == '(') return p.parseFunctionalResultType(st);
  return p.parseTypeList(st.resultTypes);
}


void printOptBarrier(AsmPrinter &p, OpId op) {
  if (p.m.numOperands(op) == 0) {
    p.attrDict(op);
    p.out += "()";
    return;
  }
  printTerminator(p, op);
}

// --- complex: `%re, %im : tensor<4xcomplex<f32>>` when both parts share a type ---------

bool parseComplex(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.parseOpAttrDict(st)) return false;
  return p.parseSameOperandsAndResultType(st);
}

void printComplex(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  if (m.numOperands(op) == 2 && m.numResults(op) == 1 &&
      m.type(m.operand(op, 0)) == m.type(m.operand(op, 1))) {
    p.type(m.type(m.result(op)));
    return;
  }
  p.functionalType(op);
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
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
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

// `%a, %b, dim = N : (...) -> ...`: concatenate, get_dimension_size and
// set_dimension_size (`dimension`), dynamic_iota (`iota_dimension`).
template <const char *kAttr = kDimension>
bool parseOperandsAndDim(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  int64_t dim;
  if (!p.expectKeyword("dim") || !p.expect('=') || !p.parseInt(dim)) return false;
  p.addAttr(st, kAttr, p.m.attrs.integer(dim, i64Type(p.m)));
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

template <const char *kAttr = kDimension>
void printOperandsAndDim(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", dim = " + std::to_string(p.m.attrs.get(p.m.attr(op, kAttr)).intValue);
  p.attrDict(op, {kAttr});
  p.out += " : ";
  p.functionalType(op);
}

bool parseDynamicSlice(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  if (!parseKeywordIntList(p, st, "sizes", "slice_sizes")) return false;
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
  return p.parseSameOperandsAndResultType(st);
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
  p.sameOperandsAndResultType(op);
}

bool parseGetTupleElement(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  int64_t index;
  if (!p.expect('[') || !p.parseInt(index) || !p.expect(']')) return false;
  p.addAttr(st, "index", p.m.attrs.integer(index, p.m.types.scalar("i32")));
  if (!p.parseOpAttrDict(st)) return false;
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

bool parseRngBitGenerator(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  std::string_view alg;
  if (!p.expectKeyword("algorithm") || !p.expect('=') || !parseEnumWord(p, alg)) return false;
  p.addAttr(st, "rng_algorithm", enumAttr(p.m, "rng_algorithm", alg));
  if (!p.parseOpAttrDict(st)) return false;
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
  if (!p.parseOpAttrDict(st)) return false;
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

// --- einsum / unary_einsum / rng / trace ------------------------------------------------

// `%a, %b, config = "ab,bc->ac" : (...) -> ...`
bool parseEinsum(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  AttrId config;
  if (!p.expectKeyword("config") || !p.expect('=')) return false;
  if (p.peek() != '"') return p.fail("expected einsum config string");
  if (!p.parseAttr(config)) return false;
  p.addAttr(st, "einsum_config", config);
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printEinsum(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", config = ";
  p.attr(p.m.attr(op, "einsum_config"));
  p.attrDict(op, {"einsum_config"});
  p.out += " : ";
  p.functionalType(op);
}

// `%a, %b, %shape, distribution = NORMAL : (...) -> ...`
bool parseRng(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  std::string_view dist;
  if (!p.expectKeyword("distribution") || !p.expect('=') || !parseEnumWord(p, dist)) return false;
  p.addAttr(st, "rng_distribution", enumAttr(p.m, "rng_distribution", dist));
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printRng(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", distribution =  ";
  p.out += enumValue(p.m, p.m.attr(op, "rng_distribution"));
  p.attrDict(op, {"rng_distribution"});
  p.out += " : ";
  p.functionalType(op);
}

// `stablehlo.trace %x, "tag" : tensor<...>` (no results).
bool parseTrace(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands) || !p.expect(',')) return false;
  AttrId tag;
  if (p.peek() != '"') return p.fail("expected trace tag string");
  if (!p.parseAttr(tag)) return false;
  p.addAttr(st, "tag", tag);
  if (!p.parseOpAttrDict(st)) return false;
  TypeId t;
  return p.expect(':') && p.parseType(t);
}

void printTrace(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", ";
  p.attr(p.m.attr(op, "tag"));
  p.attrDict(op, {"tag"});
  p.out += " : ";
  p.valueTypes(p.m.operands(op));
}

#define SOART(name) {"stablehlo." name, {parseSoart, printSoart}}
#define FUNCTIONAL(name) {"stablehlo." name, {parseFunctional, printFunctional}}

const OpSyntaxEntry kEntries[] = {
    // XLA's export writes its copies (the targets of reshards) in this form.
    {"mhlo.copy", {parseSoart, printSoart}},
    SOART("abs"), SOART("add"), SOART("and"), SOART("atan2"), SOART("cbrt"), SOART("ceil"),
    SOART("clamp"), {"stablehlo.complex", {parseComplex, printComplex}}, SOART("convert"), SOART("cosine"),
    SOART("count_leading_zeros"), SOART("divide"), SOART("exponential"),
    SOART("exponential_minus_one"), SOART("floor"), SOART("imag"), SOART("is_finite"),
    SOART("log"), SOART("log_plus_one"), SOART("logistic"), SOART("maximum"), SOART("minimum"),
    SOART("multiply"), SOART("negate"), SOART("not"), SOART("or"), SOART("popcnt"),
    SOART("power"), SOART("real"), SOART("remainder"), SOART("round_nearest_afz"),
    SOART("round_nearest_even"), SOART("rsqrt"), SOART("shift_left"),
    SOART("shift_right_arithmetic"), SOART("shift_right_logical"), SOART("sign"), SOART("sine"),
    SOART("sqrt"), SOART("subtract"), SOART("tan"), SOART("tanh"), SOART("xor"),
    FUNCTIONAL("reshape"), FUNCTIONAL("bitcast_convert"), FUNCTIONAL("dynamic_update_slice"),
    FUNCTIONAL("dynamic_reshape"), FUNCTIONAL("real_dynamic_slice"), FUNCTIONAL("dynamic_pad"),
    FUNCTIONAL("compute_reshape_shape"), FUNCTIONAL("cstr_reshapable"),
    {"stablehlo.dynamic_broadcast_in_dim",
     {parseDimsOp<kBroadcastDims, false>, printDimsOp<kBroadcastDims, false>}},
    {"stablehlo.broadcast",
     {parseDimsOp<kBroadcastSizes, false, kSizesKeyword>,
      printDimsOp<kBroadcastSizes, false, kSizesKeyword>}},
    {"stablehlo.get_dimension_size", {parseOperandsAndDim<>, printOperandsAndDim<>}},
    {"stablehlo.set_dimension_size", {parseOperandsAndDim<>, printOperandsAndDim<>}},
    {"stablehlo.dynamic_iota",
     {parseOperandsAndDim<kIotaDimension>, printOperandsAndDim<kIotaDimension>}},
    {"stablehlo.einsum", {parseEinsum, printEinsum}},
    {"stablehlo.unary_einsum", {parseEinsum, printEinsum}},
    {"stablehlo.rng", {parseRng, printRng}},
    {"stablehlo.trace", {parseTrace, printTrace}},
    {"stablehlo.create_token", {parseNullaryTyped, printNullaryTyped}},
    // Same-type shorthand when a requantization keeps the type.
    SOART("uniform_quantize"), SOART("uniform_dequantize"),
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
    {"stablehlo.concatenate", {parseOperandsAndDim<>, printOperandsAndDim<>}},
    {"stablehlo.dynamic_slice", {parseDynamicSlice, printDynamicSlice}},
    {"stablehlo.pad", {parsePad, printPad}},
    {"stablehlo.fft", {parseFft, printFft}},
    {"stablehlo.cholesky", {parseCholesky, printCholesky}},
    {"stablehlo.get_tuple_element", {parseGetTupleElement, printGetTupleElement}},
    {"stablehlo.rng_bit_generator", {parseRngBitGenerator, printRngBitGenerator}},
    {"stablehlo.reduce_precision", {parseReducePrecision, printReducePrecision}},
    {"stablehlo.return", {parseTerminator, printTerminator}},
};

#undef SOART
#undef FUNCTIONAL

}  // namespace

std::span<const OpSyntaxEntry> stablehloSyntaxTable() { return kEntries; }

}  // namespace autopart
