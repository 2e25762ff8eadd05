#include "tools/HtmlOutput.h"

#include "support/AtomicFile.h"
#include "tools/Command.h"

namespace autopart {

bool writeHtmlOutput(const std::string &path, const ReportRequest &request, const std::string &tool) {
  Diagnostics diags;
  std::optional<std::string> page = renderReport(request, diags);
  if (!page || !writeFileAtomic(path, *page, diags)) {
    printDiagnostics(diags, tool, "--html");
    return false;
  }
  return true;
}

}  // namespace autopart
