#include "asm/OpSyntax.h"

#include <unordered_map>

namespace autopart {

const OpSyntax *lookupOpSyntax(std::string_view opName) {
  static const std::unordered_map<std::string_view, const OpSyntax *> table = [] {
    std::unordered_map<std::string_view, const OpSyntax *> t;
    for (auto span : {stablehloSyntaxTable(), stablehloContractionSyntaxTable(),
                       stablehloRegionSyntaxTable(), sdySyntaxTable(), builtinSyntaxTable(),
                       chloSyntaxTable(), checkSyntaxTable()})
      for (const OpSyntaxEntry &e : span) t.emplace(e.name, &e.syntax);
    return t;
  }();
  auto it = table.find(opName);
  return it == table.end() ? nullptr : it->second;
}

bool parseTerminator(Parser &p, OpState &st) {
  if (!p.parseOpAttrDict(st) || !p.parseValueUseList(st.operands)) return false;
  if (st.operands.empty()) return true;
  std::vector<TypeId> ts;
  if (!p.expect(':') || !p.parseTypeList(ts)) return false;
  if (ts.size() != st.operands.size())
    return p.fail("terminator lists " + std::to_string(ts.size()) + " types for " +
                  std::to_string(st.operands.size()) + " operands");
  return true;
}

void printTerminator(AsmPrinter &p, OpId op) {
  p.attrDict(op);
  if (p.m.numOperands(op) == 0) return;
  p.out += ' ';
  p.operands(op);
  p.out += " : ";
  p.valueTypes(p.m.operands(op));
}

}  // namespace autopart
