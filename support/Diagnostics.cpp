#include "support/Diagnostics.h"

namespace autopart {

static const char *severityName(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Remark: return "remark";
  case Severity::Note: return "note";
  }
  return "error";
}

std::string Diagnostic::str() const {
  std::string where;
  if (!file.empty()) {
    where = file;
    if (line) where += ":" + std::to_string(line) + ":" + std::to_string(col);
    where += ": ";
  }
  return where + severityName(severity) + ": " + message;
}

void Diagnostics::emit(Severity s, std::string file, uint32_t line, uint32_t col, std::string message) {
  diags_.push_back(Diagnostic{s, std::move(file), line, col, std::move(message)});
}

bool Diagnostics::hasErrors() const { return errorCount() != 0; }

size_t Diagnostics::errorCount() const {
  size_t n = 0;
  for (const Diagnostic &d : diags_) n += d.severity == Severity::Error;
  return n;
}

std::string Diagnostics::errorText() const {
  std::string out;
  for (const Diagnostic &d : diags_) {
    if (d.severity != Severity::Error) continue;
    if (!out.empty()) out += '\n';
    out += d.str();
  }
  return out;
}

}  // namespace autopart
