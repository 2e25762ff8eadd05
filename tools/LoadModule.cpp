#include "tools/LoadModule.h"

#include <iostream>

#include "asm/Parser.h"
#include "tools/Command.h"

namespace autopart {

std::unique_ptr<Module> loadModule(const std::string &path) {
  std::string text;
  Diagnostics diags;
  if (!readFile(path, text, diags)) {
    printDiagnostics(diags, "autopart");
    return nullptr;
  }
  ParseError perr;
  std::unique_ptr<Module> m = parseModule(std::move(text), path == "-" ? "<stdin>" : path, &perr);
  if (!m) std::cerr << perr.full << "\n";
  return m;
}

OpId findPlannableEntry(const Module &m, const std::string &wanted, const char *command) {
  OpId func = m.findEntryFunction(wanted);
  if (func == kNone) {
    std::cerr << "autopart " << command << ": error: no entry function"
              << (wanted.empty() ? "" : " named '" + wanted + "'") << " with a body\n";
    return kNone;
  }
  FuncView f{m, func};
  for (ValueId v : f.args())
    if (m.types.hasDynamicDim(m.type(v))) {
      std::cerr << m.fileName << ": error: argument of type " << m.types.str(m.type(v))
                << " has dynamic dimensions, which planning does not support\n";
      return kNone;
    }
  return func;
}

}  // namespace autopart
