#include "tools/Command.h"

#include <iostream>

namespace autopart {

std::vector<CommandInfo> &commandRegistry() {
  static std::vector<CommandInfo> r;
  return r;
}

void printDiagnostics(Diagnostics &diags, const std::string &tool) {
  for (const Diagnostic &d : diags.all())
    std::cerr << (d.file.empty() ? tool + ": " : "") << d.str() << "\n";
  diags.clear();
}

}  // namespace autopart
