// Shardings already in the input meeting a mesh given on the command line.
// A program exported with `jax.jit(in_shardings=...)` carries its own mesh
// and shardings on its axes; `--mesh data=2,model=4` replaces the mesh, and
// shardings on axes the new mesh lacks would make a program Shardy rejects
// ("unknown axis name"). The user chooses what happens to them:
//
//   input:  sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
//           %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}
//   --mesh data=2,model=4
//     (default) error: x.mlir:34:3: the input's mesh ... differs from --mesh ...;
//               its sharding <@mesh, [{"_axis_0"}, {}]> uses axis "_axis_0" ...
//     keep      error here too (the new mesh has no "_axis_0"); valid with
//               --mesh _axis_0=2,_axis_1=4,pipe=2 (the input's axes kept)
//     map       [{"data"}, {}]: axes renamed to the new axes of the same size,
//               in order (_axis_0=2 -> data, _axis_1=4 -> model)
//     drop      no sharding left on that mesh; a warning says how many went
//
// With no conflicting sharding (every axis used is in the new mesh with its
// size) the shardings are kept, as `keep` would.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/Program.h"

namespace autopart {

enum class InputShardingPolicy { Error, Keep, Map, Drop };

// "error" | "keep" | "map" | "drop" (empty: error); nullopt with a message
// naming `--input-shardings` otherwise.
std::optional<InputShardingPolicy> parseInputShardingPolicy(const std::string &text, Diagnostics &diags);

// Reconciles the shardings of `m` on its mesh `meshName` with `newMesh`
// (the mesh the request plans for) under `policy`. When shardings were
// renamed or dropped, `m` is replaced by the re-parsed rewritten program
// (its text keeps the input's wherever it can), so that everything after
// (propagation, the plan, the written file) sees one consistent program.
// False, with a located error, when the policy cannot be honoured.
bool reconcileInputShardings(std::unique_ptr<Module> &m, const std::string &meshName, const Mesh &newMesh,
                             InputShardingPolicy policy, Diagnostics &diags, std::vector<Note> &notes);

// resolveMesh (api/Program.h) and then the reconciliation above with the
// policy as the user wrote it (`--input-shardings`): the mesh a request
// plans on, with `m` made consistent with it.
std::optional<Mesh> resolveRequestMesh(std::unique_ptr<Module> &m, const std::string &meshSpec,
                                       const std::string &policy, Diagnostics &diags, std::vector<Note> &notes,
                                       std::string *meshName);

}  // namespace autopart
