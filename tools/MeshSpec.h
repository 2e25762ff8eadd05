// The `--mesh` option for the subcommands: the library's resolveMesh
// (api/Program.h) with its errors printed as `autopart COMMAND: error: ...`.
#pragma once

#include <optional>
#include <string>

#include "api/Program.h"

namespace autopart {

// Prints the reason and returns nullopt when there is no mesh.
std::optional<Mesh> resolveMesh(const Module &m, const std::string &meshFlag, const char *command,
                                std::string *meshName);

}  // namespace autopart
