// `-verify-diagnostics`, as in mlir-opt: every `// expected-error {{text}}`
// (also -warning, -remark, -note; `@+N`, `@-N`, `@above`, `@below`) must be
// matched by an emitted diagnostic on that line whose message contains the
// text, and every emitted error/warning must be expected.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "support/Diagnostics.h"

namespace autopart {

class ExpectedDiagnostics {
public:
  void collect(const std::string &text, const std::string &file);
  void consume(const Diagnostics &diags);
  // Reports unmatched expectations and unexpected diagnostics.
  bool finish(std::ostream &os);

private:
  struct Expected {
    Severity severity;
    uint32_t line;
    std::string text;
    bool matched = false;
  };
  std::vector<Expected> expected_;
  std::vector<Diagnostic> unexpected_;
  std::string file_;
};

}  // namespace autopart
