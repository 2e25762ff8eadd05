#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

TypeId i64Type(Module &m) { return m.types.scalar("i64"); }

AttrId i64Array(Module &m, std::vector<int64_t> v) {
  return m.attrs.denseArray(i64Type(m), std::move(v));
}

std::vector<int64_t> intsOf(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
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

}  // namespace autopart
