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

}  // namespace autopart
