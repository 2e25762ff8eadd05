// `-sdy-flatten-call-graph`: makes every function called at most once, so
// each call can be sharded on its own. Functions are visited callees first;
// the first call of a function keeps it, every later call gets a copy of it
// (and, recursively, of everything it calls), named as MLIR's symbol table
// does (`foo_0`, `foo_1`, ... one counter for the whole module) and tagged
// with `sdy.original_func_name`:
//
//   %0 = call @foo(%arg0)   %1 = call @foo(%arg0)
//   ->
//   %0 = call @foo(%arg0)   %1 = call @foo_0(%arg0)
//   func.func private @foo_0(...) attributes {sdy.original_func_name = "foo"}
#pragma once

#include "ir/Module.h"

namespace autopart {

// Returns the number of functions copied.
size_t flattenCallGraph(Module &m);

}  // namespace autopart
