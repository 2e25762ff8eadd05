// `-sdy-remove-size-one-axes`: axes of size 1 split nothing, but two
// shardings that differ only by them look like a conflict to propagation,
// so they are dropped from every sharding (dimensions, replicated and
// unreduced axes). The meshes keep them, and so do manual_axes.
//
//   sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1]>
//   #sdy.sharding<@mesh, [{"a", "b"}p0, {"c"}p1], replicated={"c"}>
//   -> #sdy.sharding<@mesh, [{"b"}p0, {}]>
//
// A closed dimension left empty loses its priority (it no longer asks for
// anything).
#pragma once

#include "ir/Module.h"

namespace autopart {

// Returns the number of shardings changed.
size_t removeSizeOneAxes(Module &m);

}  // namespace autopart
