// The mesh a sharding refers to: its inline mesh, or the `sdy.mesh` symbol
// it names, found through the module's symbol table.
//
//   sdy.mesh @mesh = <["x"=2]>
//   meshNamed(m, "mesh")                   -> ["x"=2]
//   shardingMesh(m, <@mesh, [{"x"}]>)      -> ["x"=2]
//   shardingMesh(m, <@other, [{}]>)        -> null (no such symbol)
#pragma once

#include <string_view>

#include "ir/Module.h"

namespace autopart {

// Null when no `sdy.mesh` op of that name holds a mesh.
const Mesh *meshNamed(const Module &m, std::string_view name);
const Mesh *shardingMesh(const Module &m, const TensorSharding &s);

}  // namespace autopart
