// Diagnostics in the `file:line:col: severity: message` form compilers use,
// collected so that drivers decide where they go and `-verify-diagnostics` can
// match them against `expected-*` comments. Library code reports every error
// here and returns false / nullopt; it never prints or exits.
//
//   diags.error(m, op, "unknown axis \"x\"")   // an op of a parsed module
//   -> model.mlir:12:5: error: unknown axis "x"
//   diags.error("--mesh: expected NAME=SIZE")    // input without a location
//   -> error: --mesh: expected NAME=SIZE
//
// It sits at the bottom layer so every folder can use it; an op's location
// comes from whatever the caller passes that has `position(op)` (ir's
// Module), so this file needs no IR.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace autopart {

enum class Severity { Error, Warning, Remark, Note };

// Where a diagnostic points: a file, and a line/column when known (0: none).
struct SourcePosition {
  std::string file;
  uint32_t line = 0, col = 0;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  uint32_t line = 0, col = 0;
  std::string message;

  std::string str() const;
};

class Diagnostics {
public:
  void emit(Severity s, std::string file, uint32_t line, uint32_t col, std::string message);
  void emit(Severity s, const SourcePosition &at, std::string message) {
    emit(s, at.file, at.line, at.col, std::move(message));
  }
  template <class Source, class Id>
  void emit(Severity s, const Source &source, Id op, std::string message) {
    emit(s, source.position(op), std::move(message));
  }
  template <class Source, class Id>
  void error(const Source &source, Id op, std::string message) {
    emit(Severity::Error, source.position(op), std::move(message));
  }
  template <class Source, class Id>
  void warning(const Source &source, Id op, std::string message) {
    emit(Severity::Warning, source.position(op), std::move(message));
  }
  // An error without a location (command-line input, a file that cannot be
  // opened: `file` then names it).
  void error(std::string message, std::string file = "") {
    emit(Severity::Error, std::move(file), 0, 0, std::move(message));
  }

  bool hasErrors() const;
  size_t errorCount() const;
  // The messages of all errors as `str()` lines, for drivers and tests.
  std::string errorText() const;
  const std::vector<Diagnostic> &all() const { return diags_; }
  void clear() { diags_.clear(); }

private:
  std::vector<Diagnostic> diags_;
};

}  // namespace autopart
