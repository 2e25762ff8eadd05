#include "tools/LoadModule.h"

#include "asm/Parser.h"
#include "tools/Command.h"

namespace autopart {

std::optional<ProgramText> readProgram(const std::string &path) {
  ProgramText p;
  Diagnostics diags;
  if (!readFile(path, p.text, diags)) {
    printDiagnostics(diags, "autopart");
    return std::nullopt;
  }
  p.fileName = path == "-" ? "<stdin>" : path;
  return p;
}

std::unique_ptr<Module> loadModule(const std::string &path) {
  std::optional<ProgramText> p = readProgram(path);
  if (!p) return nullptr;
  Diagnostics diags;
  std::unique_ptr<Module> m = parseProgram(std::move(*p), diags);
  printDiagnostics(diags, "autopart");
  return m;
}

}  // namespace autopart
