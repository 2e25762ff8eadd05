#include "export/CheckWritten.h"

#include "asm/Parser.h"
#include "verify/DeviceCount.h"
#include "verify/Verifier.h"

namespace autopart {

bool checkWrittenProgram(const std::string &text, const std::string &fileName, Diagnostics &diags) {
  ParseError perr;
  std::unique_ptr<Module> m = parseModule(text, fileName, &perr);
  if (!m) {
    diags.error("internal error: the planned program does not parse back (nothing written): " + perr.full,
                fileName);
    return false;
  }
  Diagnostics found;
  if (verifyModule(*m, found) && verifyOneDeviceCount(*m, found)) return true;
  std::string first;
  size_t errors = 0;
  for (const Diagnostic &d : found.all()) {
    if (d.severity != Severity::Error) continue;
    if (errors++ == 0) first = d.str();
  }
  diags.error("internal error: the planned program does not pass Shardy's verifier (nothing written): " + first +
                  (errors > 1 ? " (and " + std::to_string(errors - 1) + " more)" : ""),
              fileName);
  return false;
}

}  // namespace autopart
