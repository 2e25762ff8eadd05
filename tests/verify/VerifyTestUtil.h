// The verifier tests' one question: the error text of verifying a program.
//
//   verifyError(R"(sdy.mesh @mesh = <["a"=2]> ...)")
//   -> "t.mlir:2:1: error: 'func.func' op arg 0 - unknown axis name: \"c\"", or "" when valid
#pragma once

#include <string>

#include "tests/TestUtil.h"
#include "verify/Verifier.h"

namespace autopart::testing {

// The errors of verifying `text`, "" when it verifies ("<parse error>" when
// it does not parse).
inline std::string verifyError(const std::string &text) {
  std::unique_ptr<Module> m = parse(text);
  if (!m) return "<parse error>";
  Diagnostics diags;
  bool ok = verifyModule(*m, diags);
  EXPECT_EQ(ok, !diags.hasErrors());
  return diags.errorText();
}

}  // namespace autopart::testing
