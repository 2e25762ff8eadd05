// Printer of the autopart IR in MLIR's own style (the custom forms of
// stablehlo/sdy/func ops, attribute dictionaries sorted by name, values
// renamed %0, %1, %arg0, %cst, ... as MLIR's AsmPrinter names them), so that
// FileCheck lines written against Shardy/MLIR output match and printing the
// re-parsed output gives the same text.
#pragma once

#include <functional>
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

// Writes a file atomically: `write` fills a temporary file next to `path`,
// which is renamed over `path` only when `write` and the stream succeed.
bool writeFileAtomicWith(const std::string &path,
                         const std::function<bool(std::ostream &)> &write,
                         std::string *error);

// Writes `contents` to `path` atomically (temp file + rename), so a failure
// never leaves a partial output. "-" writes to stdout.
bool writeFileAtomic(const std::string &path, const std::string &contents,
                     std::string *error);

}  // namespace autopart
