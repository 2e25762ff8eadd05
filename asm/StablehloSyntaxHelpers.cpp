#include "asm/StablehloSyntaxHelpers.h"

#include <cstdlib>

namespace autopart {

TypeId i64Type(Module &m) { return m.types.scalar("i64"); }

AttrId i64Array(Module &m, std::vector<int64_t> v) {
  return m.attrs.denseArray(i64Type(m), std::move(v));
}

std::vector<int64_t> intsOf(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return {};
  const AttrStorage &s = m.attrs.get(a);
  // Older programs write i64 lists as `dense<[1, 2]> : tensor<2xi64>` (or a
  // splat `dense<4> : tensor<2xi64>`, booleans as `dense<false>`); the pretty
  // forms print them as lists.
  if (s.kind == AttrKind::DenseElements && s.prefix == "dense") return m.attrs.denseInts(a);
  return m.attrs.intList(a);
}

void upgradeDenseListAttrs(Module &m, OpState &st) {
  static constexpr std::string_view kI64Lists[] = {
      "broadcast_dimensions", "broadcast_sizes", "permutation", "dimensions", "start_indices",
      "limit_indices", "strides", "slice_sizes", "edge_padding_low", "edge_padding_high",
      "interior_padding", "fft_length", "window_strides", "lhs_dilation", "rhs_dilation",
      "window_dimensions", "base_dilations", "window_dilations", "known_expanding_dimensions",
      "known_nonexpanding_dimensions"};
  for (NamedAttr &a : st.attrs) {
    const AttrStorage &s = m.attrs.get(a.value);
    if (s.kind != AttrKind::DenseElements || s.prefix != "dense" || s.type == kNoType) continue;
    const TypeStorage &t = m.types.get(s.type);
    if (t.kind != TypeKind::Tensor || t.shape.size() != 1) continue;
    std::string_view name = m.names.str(a.name);
    bool isBool = name == "window_reversal";
    bool listed = isBool;
    for (std::string_view k : kI64Lists) listed |= k == name;
    if (!listed) continue;
    std::string_view element = m.types.str(t.element);
    if (element != (isBool ? "i1" : "i64")) continue;
    std::vector<int64_t> v = m.attrs.denseInts(a.value);
    if (int64_t(v.size()) != t.shape[0]) continue;  // not a plain list: keep as written
    a.value = m.attrs.denseArray(t.element, std::move(v));
  }
}

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

bool parseFunctional(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printFunctional(AsmPrinter &p, OpId op) {
  if (p.m.numOperands(op)) p.out += ' ';
  p.operands(op);
  p.attrDict(op);
  p.out += " : ";
  p.functionalType(op);
}

}  // namespace autopart
