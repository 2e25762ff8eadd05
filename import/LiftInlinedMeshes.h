// `-sdy-lift-inlined-meshes`: shardings that spell their mesh inline get a
// `sdy.mesh` symbol instead, and identical `sdy.mesh` ops are merged into
// the first one, so every mesh exists once by name:
//
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   sdy.mesh @copy = <["x"=2, "y"=4]>
//   %0 = ... {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}]>]>}
//   %1 = sdy.sharding_constraint %0 <@copy, [{}]>
//   ->
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   sdy.mesh @mesh_0 = <["x"=2]>
//   %0 = ... <@mesh_0, [{"x"}]> ... ; %1 = sdy.sharding_constraint %0 <@mesh, [{}]>
//
// New meshes are named `maximal_mesh_<id>` (one device), `empty_mesh` (no
// axes) or `mesh`, made unique with `_0`, `_1`, ... as MLIR's symbol table.
// The `#stablehlo.mesh` of a StableHLO collective's mesh-axes replica
// groups is lifted the same way (after all shardings). Finally every mesh
// symbol gets its StableHLO spelling as a discardable attribute:
//   sdy.mesh @mesh = <["a"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 4 : i64}]}}
#pragma once

#include "ir/Module.h"

namespace autopart {

// Returns the number of shardings rewritten.
size_t liftInlinedMeshes(Module &m);

}  // namespace autopart
