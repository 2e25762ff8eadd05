// A program handed to the library as text (from a file the CLI read, or a
// string from Python), parsed into a Module, and the pieces every planning
// request resolves on it: the mesh and the entry function. Errors go into a
// `Diagnostics` (a parse error located as `file:line:col: error: ...`), so
// the CLI prints them and Python raises them:
//
//   ProgramText p{"func.func @main(%a: tensor<8xf32>) ...", "model.mlir"};
//   std::unique_ptr<Module> m = parseProgram(p, diags);
//   resolveMesh(*m, "data=8,model=4", diags, &meshName) -> <["data"=8, "model"=4]>, meshName "mesh"
//   parseProgram({"func.func @main(", "x.mlir"}, diags) -> null,
//     diags: x.mlir:1:16: error: expected ...
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "ir/Sharding.h"
#include "propagation/CompleteShardings.h"
#include "tactics/ApplySchedule.h"
#include "support/Diagnostics.h"

namespace autopart {

struct ProgramText {
  std::string text;
  std::string fileName = "<string>";  // where diagnostics point
};

// What a request noted on the way, in order: a diagnostic of an analysis it
// ran (not an error), or a line of its own ("levers remat:full: ...",
// "pinned 3 op(s) ..."). The CLI prints them to stderr as before; Python
// turns the diagnostics into warnings and keeps the lines.
struct Note {
  std::string line;                     // when not a diagnostic
  std::optional<Diagnostic> diagnostic;
};

// Appends each of `diags` as a note and clears them.
void addNotes(std::vector<Note> &notes, Diagnostics &diags);

// Moves `from` into `to`, the unlocated messages prefixed with the option
// they concern ("--device: ..."), as the CLI names it.
void addWithOption(Diagnostics &to, Diagnostics &from, const std::string &option);

// Null, with the parse error in `diags`, when the text does not parse.
std::unique_ptr<Module> parseProgram(ProgramText program, Diagnostics &diags);

// The same, then Shardy's verifier (verify/) on what parsed and XLA's one
// device count per module (verify/DeviceCount.h): null, with the located
// errors in `diags`, when Shardy or XLA would reject the input.
// plan and search use it, so that a broken sharding in the input is the
// user's error in their file, not an invalid plan caught when writing it.
std::unique_ptr<Module> parseVerifiedProgram(ProgramText program, Diagnostics &diags);

// The `--mesh` syntax: `data=8,model=4` (axes major to minor).
//
//   parseMeshSpec("data=8,model=4") -> <["data"=8, "model"=4]>
std::optional<Mesh> parseMeshSpec(const std::string &spec, Diagnostics &diags);

// The first `sdy.mesh` of the module: (symbol name, mesh), or nullopt.
std::optional<std::pair<std::string, Mesh>> findModuleMesh(const Module &m);

// The mesh a request works on: `meshSpec` when given, else the module's own
// `sdy.mesh` (whose symbol name goes to `meshName`; "mesh" otherwise).
// Nullopt, with an error without location, when neither is there or the spec
// does not parse.
std::optional<Mesh> resolveMesh(const Module &m, const std::string &meshSpec, Diagnostics &diags,
                                std::string *meshName);

// The function a planning request works on (`wanted`, else `main`, else the
// first public one with a body), checked to have only static argument
// shapes; kNone with the reason in `diags` otherwise.
OpId findPlannableEntry(const Module &m, const std::string &wanted, Diagnostics &diags);

// The sharding of each value of `m` once Shardy's propagation pipeline has
// completed it as XLA does (propagation/CompleteShardings.h), by `m`'s own
// value ids: the pipeline runs on a second parse of `m` (through XLA's
// GSPMD import first when `readGspmd`), so `m` (and the program written
// from it) keeps only what the user wrote. Each value gets the sharding of
// the values standing for it in the pipeline's output; a constant the
// pipeline split per use gets theirs when they agree, else none (counted in
// `stats->perUseValues`). All none when `m` carries no sharding. The
// pipeline's own output goes to `pipelineOutput` when given (null when the
// pipeline did not run). False (errors in `diags`) when the pipeline fails.
bool completedShardings(const Module &m, bool readGspmd, ShardingVector &out, Diagnostics &diags,
                        CompletionStats *stats = nullptr, std::unique_ptr<Module> *pipelineOutput = nullptr);

// The shardings a plan of `func` starts from: completedShardings when
// `propagate`, else the input's argument shardings as written.
bool seedInputShardings(const Module &m, OpId func, bool propagate, ShardingVector &state, Diagnostics &diags,
                        CompletionStats *stats = nullptr);

}  // namespace autopart
