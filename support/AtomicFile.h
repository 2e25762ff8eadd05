// Output files are written whole or not at all: the text goes to a temporary
// file beside the target, which is renamed over it only once everything was
// written. A failing run (bad input, full disk, a writer that declines) thus
// never leaves a partial program where a user expects one.
//
//   writeFileAtomic("out.mlir", text, &err)
//   -> writes out.mlir.tmp.<pid>, then renames it to out.mlir
//   writeFileAtomic("-", text, &err)   -> stdout
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "support/Diagnostics.h"

namespace autopart {

// `write` fills the temporary file; returning false (it reported why itself)
// or a stream failure discards it. "-" writes to stdout. Errors go to `diags`.
bool writeFileAtomicWith(const std::string &path, const std::function<bool(std::ostream &)> &write,
                         Diagnostics &diags);

// Writes `contents` to `path` atomically.
bool writeFileAtomic(const std::string &path, const std::string &contents, Diagnostics &diags);

}  // namespace autopart
