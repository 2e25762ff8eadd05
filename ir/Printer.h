// Printer of the autopart IR in MLIR's own style (the custom forms of
// stablehlo/sdy/func ops, attribute dictionaries sorted by name, values
// renamed %0, %1, %arg0, %cst, ... as MLIR's AsmPrinter names them), so that
// FileCheck lines written against Shardy/MLIR output match and printing the
// re-parsed output gives the same text.
#pragma once

#include <string>

#include "ir/Module.h"

namespace autopart {

struct PrintOptions {
  bool printLocations = false;  // `loc(...)` after ops (mlir-print-debuginfo)
  bool genericForm = false;     // every op as "name"(...) <{...}> ({...}) : ...
};

std::string printModule(const Module &m, const PrintOptions &opts = {});

// Writes `contents` to `path` atomically (temp file + rename), so a failure
// never leaves a partial output. "-" writes to stdout.
bool writeFileAtomic(const std::string &path, const std::string &contents,
                     std::string *error);

}  // namespace autopart
