#include "tools/Command.h"

#include <iostream>

namespace autopart {

std::vector<CommandInfo> &commandRegistry() {
  static std::vector<CommandInfo> r;
  return r;
}

void printDiagnostics(Diagnostics &diags, const std::string &tool, const std::string &option) {
  for (Diagnostic d : diags.all()) {
    if (!d.file.empty()) {
      std::cerr << d.str() << "\n";
      continue;
    }
    if (!option.empty()) d.message = option + ": " + d.message;
    std::cerr << tool << ": " << d.str() << "\n";
  }
  diags.clear();
}

void printNotes(const std::vector<Note> &notes, const std::string &tool) {
  for (const Note &n : notes) {
    if (!n.diagnostic) {
      std::cerr << n.line << "\n";
      continue;
    }
    Diagnostics one;
    one.emit(n.diagnostic->severity, n.diagnostic->file, n.diagnostic->line, n.diagnostic->col, n.diagnostic->message);
    printDiagnostics(one, tool);
  }
}

}  // namespace autopart
