#include "ir/OpSyntax.h"

#include <unordered_map>

namespace autopart {

const OpSyntax *lookupOpSyntax(std::string_view opName) {
  static const std::unordered_map<std::string_view, const OpSyntax *> table = [] {
    std::unordered_map<std::string_view, const OpSyntax *> t;
    for (auto span : {stablehloSyntaxTable(), sdySyntaxTable(), builtinSyntaxTable()})
      for (const OpSyntaxEntry &e : span) t.emplace(e.name, &e.syntax);
    return t;
  }();
  auto it = table.find(opName);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace autopart
