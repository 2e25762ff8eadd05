// The `--mesh` option: `data=8,model=4` (axes major to minor), optionally
// `name=mesh` for the symbol, or taken from the program's own `sdy.mesh`.
//
//   parseMeshSpec("data=8,model=4") -> <["data"=8, "model"=4]>
#pragma once

#include <optional>
#include <string>

#include "ir/Module.h"
#include "ir/Sharding.h"

namespace autopart {

std::optional<Mesh> parseMeshSpec(const std::string &spec, Diagnostics &diags);

// The first `sdy.mesh` of the module: (symbol name, mesh), or nullopt.
std::optional<std::pair<std::string, Mesh>> findModuleMesh(const Module &m);

// The mesh a command works on: `--mesh` when given, else the module's own
// `sdy.mesh` (whose symbol name goes to `meshName`; "mesh" otherwise).
// Prints `autopart COMMAND: error: ...` and returns nullopt when neither is
// there or the flag does not parse.
std::optional<Mesh> resolveMesh(const Module &m, const std::string &meshFlag, const char *command,
                                std::string *meshName);

}  // namespace autopart
