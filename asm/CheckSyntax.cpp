// Custom forms of StableHLO's test dialects: the `check` assertions of the
// interpreter tests and `interpreter.probe`, read into operands, attributes
// and result types (the forms of stablehlo/tests/CheckOps.td) so the executor
// reads `value`, `tolerance`, ... instead of scanning text:
//
//   check.expect_eq %a, %b : tensor<2xi32>
//   check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi32>
//     value = dense<[1, 2]> : tensor<2xi32>
//   check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<f64>
//   check.expect_almost_eq_const %a, dense<5.1> : tensor<f64> {tolerance = 0.1 : f64}
//     value = dense<5.1> : tensor<f64>, tolerance = 0.1 : f64 (printed `, tolerance = 0.1`)
//   check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
//   check.expect_serialized_eq %v, probe_id = "p0", iter = 1 : tensor<i64>
//   %1 = interpreter.probe %0, probe_id = "p0" : tensor<i64>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "asm/OpSyntax.h"
#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

namespace {

// A bare float literal (`0.1`, `1e-4`), without the `: type` suffix a general
// attribute would take: in these forms the next `:` starts the op's types.
bool parseBareFloat(Parser &p, AttrId &a) {
  p.skipWs();
  std::string_view rest = p.rest();
  size_t n = 0;
  for (; n < rest.size(); ++n) {
    char c = rest[n];
    bool sign = (c == '-' || c == '+') && (n == 0 || rest[n - 1] == 'e' || rest[n - 1] == 'E');
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != 'e' && c != 'E' && !sign) break;
  }
  std::string spelling(rest.substr(0, n));
  char *endp = nullptr;
  double v = std::strtod(spelling.c_str(), &endp);
  if (spelling.empty() || endp != spelling.c_str() + spelling.size()) return p.fail("expected float literal");
  p.setPos(p.pos() + n);
  // The written `0.001 : f64 : tensor<..>` of CheckOps.td's example: an
  // explicit f64 suffix before the op's own `:`.
  const char *save = p.pos();
  if (p.consumeIf(':') && !(p.consumeKeyword("f64") && p.peek() == ':')) p.setPos(save);
  a = p.m.attrs.floating(v, spelling, p.m.types.scalar("f64"));
  return true;
}

bool parseKeywordFloat(Parser &p, OpState &st, std::string_view kw) {
  AttrId a = kNoAttr;
  if (!p.expectKeyword(kw) || !p.expect('=') || !parseBareFloat(p, a)) return false;
  p.addAttr(st, kw, a);
  return true;
}

bool parseKeywordUnsigned(Parser &p, OpState &st, std::string_view kw, std::string_view name,
                          std::string_view type) {
  int64_t v;
  if (!p.expectKeyword(kw) || !p.expect('=') || !p.parseInt(v)) return false;
  if (v < 0) return p.fail("expected a non-negative " + std::string(kw));
  p.addAttr(st, name, p.m.attrs.integer(v, p.m.types.scalar(type)));
  return true;
}

bool parseKeywordString(Parser &p, OpState &st, std::string_view kw) {
  std::string_view s;
  if (!p.expectKeyword(kw) || !p.expect('=') || !p.parseStringLiteral(s)) return false;
  p.addAttr(st, kw, p.m.attrs.string(s));
  return true;
}

bool parseOperands(Parser &p, OpState &st, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    ValueId v;
    if (i && !p.expect(',')) return false;
    if (!p.parseValueUse(v)) return false;
    st.operands.push_back(v);
  }
  return true;
}

// `, tolerance = F` when the next item is that keyword.
bool parseOptionalTolerance(Parser &p, OpState &st) {
  const char *save = p.pos();
  if (!p.consumeIf(',')) return true;
  if (!p.peekStr("tolerance")) {
    p.setPos(save);
    return true;
  }
  return parseKeywordFloat(p, st, "tolerance");
}

bool parseTypes(Parser &p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    TypeId t;
    if ((i && !p.expect(',')) || !p.parseType(t)) return false;
  }
  return true;
}

void printKeywordAttr(AsmPrinter &p, OpId op, std::string_view kw, std::string_view name) {
  AttrId a = p.m.attr(op, name);
  if (a == kNoAttr) return;
  p.out += ", ";
  p.out += kw;
  p.out += " = ";
  const AttrStorage &st = p.m.attrs.get(a);
  if (st.kind == AttrKind::Float) {
    // Shortest spelling that reads back to the same double, without the
    // `: f64` suffix (the form has no place for it).
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, st.floatValue);
    std::string_view text(buf, size_t(end - buf));
    p.out += text;
    if (text.find_first_of(".en") == std::string_view::npos) p.out += ".0";
  }
  else if (st.kind == AttrKind::Integer) p.out += std::to_string(st.intValue);
  else p.attr(a);
}

// `%a, %b [, tolerance = F] attr-dict : t` (expect_eq, expect_almost_eq).
bool parseBinary(Parser &p, OpState &st) {
  if (!parseOperands(p, st, 2) || !parseOptionalTolerance(p, st) || !p.parseOpAttrDict(st)) return false;
  return p.expect(':') && parseTypes(p, 1);
}

void printBinary(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printKeywordAttr(p, op, "tolerance", "tolerance");
  p.attrDict(op, {"tolerance"});
  p.out += " : ";
  p.type(p.m.type(p.m.operand(op, 0)));
}

// `%a, dense<..> : t [, tolerance = F] attr-dict` (the `_const` checks).
bool parseConst(Parser &p, OpState &st) {
  AttrId value;
  if (!parseOperands(p, st, 1) || !p.expect(',') || !p.parseAttr(value)) return false;
  if (p.m.attrs.kind(value) != AttrKind::DenseElements) return p.fail("expected a dense elements literal");
  p.addAttr(st, "value", value);
  return parseOptionalTolerance(p, st) && p.parseOpAttrDict(st);
}

void printConst(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", ";
  p.attr(p.m.attr(op, "value"));
  printKeywordAttr(p, op, "tolerance", "tolerance");
  p.attrDict(op, {"value", "tolerance"});
}

// `%a, %b, max_ulp_difference = N [, min_ulp_difference = N] : attr-dict t1, t2`
bool parseClose(Parser &p, OpState &st) {
  if (!parseOperands(p, st, 2) || !p.expect(',') ||
      !parseKeywordUnsigned(p, st, "max_ulp_difference", "max_ulp_difference", "ui64"))
    return false;
  if (p.consumeIf(',') && !parseKeywordUnsigned(p, st, "min_ulp_difference", "min_ulp_difference", "ui64"))
    return false;
  return p.expect(':') && p.parseOpAttrDict(st) && parseTypes(p, 2);
}

void printClose(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printKeywordAttr(p, op, "max_ulp_difference", "max_ulp_difference");
  printKeywordAttr(p, op, "min_ulp_difference", "min_ulp_difference");
  p.out += " :";
  p.attrDict(op, {"max_ulp_difference", "min_ulp_difference"});
  p.out += ' ';
  p.valueTypes(p.m.operands(op));
}

// `%v, probe_id = "id" [, iter = N] attr-dict : t`; interpreter.probe has no
// `iter` and returns its operand.
bool parseProbeLike(Parser &p, OpState &st, bool withIter, bool hasResult) {
  if (!parseOperands(p, st, 1) || !p.expect(',') || !parseKeywordString(p, st, "probe_id")) return false;
  if (withIter && p.consumeIf(',') && !parseKeywordUnsigned(p, st, "iter", "iteration", "ui32")) return false;
  TypeId t;
  if (!p.parseOpAttrDict(st) || !p.expect(':') || !p.parseType(t)) return false;
  if (hasResult) st.resultTypes.push_back(t);
  return true;
}

bool parseSerializedEq(Parser &p, OpState &st) { return parseProbeLike(p, st, true, false); }
bool parseProbe(Parser &p, OpState &st) { return parseProbeLike(p, st, false, true); }

void printProbeLike(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ", probe_id = ";
  p.attr(p.m.attr(op, "probe_id"));
  printKeywordAttr(p, op, "iter", "iteration");
  p.attrDict(op, {"probe_id", "iteration"});
  p.out += " : ";
  p.type(p.m.type(p.m.operand(op, 0)));
}

const OpSyntaxEntry kEntries[] = {
    {"check.expect_eq", {parseBinary, printBinary}},
    {"check.expect_almost_eq", {parseBinary, printBinary}},
    {"check.expect_eq_const", {parseConst, printConst}},
    {"check.expect_almost_eq_const", {parseConst, printConst}},
    {"check.expect_close", {parseClose, printClose}},
    {"check.expect_serialized_eq", {parseSerializedEq, printProbeLike}},
    {"interpreter.probe", {parseProbe, printProbeLike}},
};

}  // namespace

std::span<const OpSyntaxEntry> checkSyntaxTable() { return kEntries; }

}  // namespace autopart
