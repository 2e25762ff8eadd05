// Output that keeps the input's text. A plan changes only shardings -- the
// module's `sdy.mesh`, and `sdy.sharding` / `mhlo.sharding` on function
// arguments, results and ops -- so autopart writes the input back byte for
// byte and edits just those attribute entries, instead of re-printing the
// program in its own style (which would drop the input's formatting, its
// `#loc` aliases and whatever else the printer spells differently):
//
//   input:    module @jit_f {
//               func.func public @main(%arg0: tensor<8x4xf32> loc("x")) -> (tensor<8x4xf32> {jax.result_info = ""}) {
//                 %0 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32> loc(#loc3)
//   planned:  module @jit_f {
//               sdy.mesh @mesh = <["data"=8]>
//               func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>} loc("x")) -> (tensor<8x4xf32> {jax.result_info = "", sdy.sharding = ...}) {
//                 %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x4xf32> loc(#loc3)
//
// New entries go into an existing dictionary at their sorted place (MLIR
// prints dictionaries sorted), other entries keep their text.
#pragma once

#include <optional>
#include <string>

#include "ir/Module.h"

namespace autopart {

// The source of `planned` (Module::source) with the sharding edits made to
// it since it was parsed. nullopt, with the reason in `why`, when the module
// changed in another way (ops added, removed or rewired, other attributes
// changed) or an edited spot has no recorded source position; the caller
// then prints the module instead.
std::optional<std::string> preserveText(const Module &planned, std::string *why);

// Writes `planned` to `path` atomically: its input text with the sharding
// edits when preserveText can, else the printed module (with a note on
// stderr saying why). "-" writes to stdout.
bool writePlannedModule(const Module &planned, const std::string &path, bool reprint, Diagnostics &diags);

// The text writePlannedModule writes, for callers that keep it (Python's
// `Plan.text`); `note` gets the line it would print when it re-prints.
std::string plannedModuleText(const Module &planned, bool reprint, std::string *note);

}  // namespace autopart
