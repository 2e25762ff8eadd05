// `--html OUT` of `plan` and `search`: the page `autopart report` would make
// of the program just written (api/Report.h), written atomically; errors are
// printed as `autopart COMMAND: error: --html: ...`.
#pragma once

#include <string>

#include "api/Report.h"

namespace autopart {

bool writeHtmlOutput(const std::string &path, const ReportRequest &request, const std::string &tool);

}  // namespace autopart
