// Reading an input program for a subcommand: file or stdin, parse errors as
// `file:line:col: error: ...` on stderr.
#pragma once

#include <memory>
#include <string>

#include "ir/Module.h"

namespace autopart {

std::unique_ptr<Module> loadModule(const std::string &path);

// The function a planning command works on (`wanted`, else `main`, else the
// first public one with a body), checked to have only static argument
// shapes. Prints `autopart COMMAND: error: ...` and returns kNone otherwise.
OpId findPlannableEntry(const Module &m, const std::string &wanted, const char *command);

}  // namespace autopart
