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

std::optional<Mesh> parseMeshSpec(const std::string &spec, std::string *error);

// The first `sdy.mesh` of the module: (symbol name, mesh), or nullopt.
std::optional<std::pair<std::string, Mesh>> findModuleMesh(const Module &m);

}  // namespace autopart
