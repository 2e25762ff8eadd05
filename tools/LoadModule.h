// Reading an input program for a subcommand: file or stdin, parse errors as
// `file:line:col: error: ...` on stderr.
#pragma once

#include <memory>
#include <string>

#include "ir/Module.h"

namespace autopart {

std::unique_ptr<Module> loadModule(const std::string &path);

}  // namespace autopart
