// Reading an input program for a subcommand: file or stdin, parse errors as
// `file:line:col: error: ...` on stderr (api/Program.h parses).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "api/Program.h"

namespace autopart {

// The file's text, named for diagnostics ("-": stdin, "<stdin>"); prints
// `autopart: error: cannot open ...` and returns nullopt when unreadable.
std::optional<ProgramText> readProgram(const std::string &path);

std::unique_ptr<Module> loadModule(const std::string &path);

}  // namespace autopart
