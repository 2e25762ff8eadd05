#include "ir/Diagnostics.h"

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
  return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
         severityName(severity) + ": " + message;
}

void Diagnostics::emit(Severity s, const Module &m, OpId op, std::string message) {
  SourceLoc l = op == kNone ? SourceLoc{1, 1} : m.lineCol(m.ops[op].srcOffset);
  emit(s, m.fileName, l.line, l.col, std::move(message));
}

void Diagnostics::emit(Severity s, std::string file, uint32_t line, uint32_t col,
                       std::string message) {
  diags_.push_back(Diagnostic{s, std::move(file), line, col, std::move(message)});
}

bool Diagnostics::hasErrors() const {
  for (const Diagnostic &d : diags_)
    if (d.severity == Severity::Error) return true;
  return false;
}

}  // namespace autopart
