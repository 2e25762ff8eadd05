// `-sdy-manual-axes-cleanup`: makes every in/out sharding of a manual
// computation say what it does with each manual axis. The parts of a manual
// axis a sharding leaves unused (in its dimensions and unreduced axes)
// become explicitly replicated, and the manual axes are sorted in mesh
// order:
//
//   sdy.mesh @mesh = <["c"=2, "a"=2]>
//   sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c", ?}]>] ... manual_axes={"a", "c"}
//   ->
//   sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c", ?}], replicated={"a"}>] ... manual_axes={"c", "a"}
//
// A sharding on the empty mesh that needs replicated axes moves to the
// computation's common mesh. A manual computation with manual axes, no
// inputs or outputs and a non-empty body is an error.
#pragma once

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

bool cleanUpManualAxes(Module &m, Diagnostics &diags);

}  // namespace autopart
