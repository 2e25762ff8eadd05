// autopart checks what it writes: the text `plan` and `search` are about to
// write is parsed back and run through Shardy's verifier (verify/), so a
// program Shardy (and so XLA) would reject is never written. A failure here
// is autopart's bug, not the user's: it is reported as an internal error
// with the verifier's first complaints, and no file is written.
//
//   checkWrittenProgram(text, "out.mlir", diags)
//   -> false, "out.mlir: error: internal error: the planned program does not
//      pass Shardy's verifier (nothing written): out.mlir:34:3: error:
//      'func.func' op arg 0 - unknown axis name: "_axis_0" (and 23 more)"
#pragma once

#include <string>

#include "support/Diagnostics.h"

namespace autopart {

bool checkWrittenProgram(const std::string &text, const std::string &fileName, Diagnostics &diags);

}  // namespace autopart
