// Diagnostics in the `file:line:col: severity: message` form compilers use,
// collected so that drivers decide where they go and `-verify-diagnostics` can
// match them against `expected-*` comments.
#pragma once

#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

enum class Severity { Error, Warning, Remark, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  uint32_t line = 0, col = 0;
  std::string message;

  std::string str() const;
};

class Diagnostics {
public:
  void emit(Severity s, const Module &m, OpId op, std::string message);
  void emit(Severity s, std::string file, uint32_t line, uint32_t col, std::string message);
  void error(const Module &m, OpId op, std::string message) {
    emit(Severity::Error, m, op, std::move(message));
  }
  void warning(const Module &m, OpId op, std::string message) {
    emit(Severity::Warning, m, op, std::move(message));
  }
  bool hasErrors() const;
  const std::vector<Diagnostic> &all() const { return diags_; }
  void clear() { diags_.clear(); }

private:
  std::vector<Diagnostic> diags_;
};

}  // namespace autopart
