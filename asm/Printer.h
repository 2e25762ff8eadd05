// Printer of the autopart IR in MLIR's own style (the custom forms of
// stablehlo/sdy/func ops, attribute dictionaries sorted by name, values
// renamed %0, %1, %arg0, %cst, ... as MLIR's AsmPrinter names them), so that
// FileCheck lines written against Shardy/MLIR output match and printing the
// re-parsed output gives the same text.
#pragma once

#include <ostream>
#include <string>

#include "ir/Module.h"

namespace autopart {

struct PrintOptions {
  bool printLocations = false;  // `loc(...)` after ops (mlir-print-debuginfo)
  bool genericForm = false;     // every op as "name"(...) <{...}> ({...}) : ...
};

std::string printModule(const Module &m, const PrintOptions &opts = {});
// Streams the text to `os` in pieces, so a large program never exists twice
// in memory. Returns false when the stream failed.
bool printModule(const Module &m, std::ostream &os, const PrintOptions &opts = {});

}  // namespace autopart
