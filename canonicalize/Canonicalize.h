// MLIR's `-canonicalize` for the ops autopart knows Shardy patterns for:
// rewrite patterns applied to a fixed point, and ops without side effects
// erased once nothing reads them. Each pattern lives in the file of its op
// family and registers itself in a table keyed by op name, so adding one
// touches one file:
//
//   bool foldNoopAllReduce(Rewriter &rw, OpId op) { ... }
//   PatternRegistration reg("sdy.all_reduce", "all-reduce-noop", foldNoopAllReduce);
//
//   %0 = sdy.all_reduce {} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
//   return %0                          -> return %arg0
//
// The driver visits ops as MLIR's greedy rewriter does (bottom-up, then
// whatever a rewrite touched), so the output matches `sdy_opt -canonicalize`.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "canonicalize/Rewriter.h"
#include "support/Diagnostics.h"

namespace autopart::canonicalize {

// Tries to rewrite `op`; returns true when it changed the IR. A pattern that
// returns false must leave the IR untouched.
using PatternFn = bool (*)(Rewriter &rw, OpId op);

struct Pattern {
  std::string_view opName;
  std::string_view name;
  // Patterns of one op are tried by decreasing benefit (MLIR's: a pattern
  // matching a chain of two ops outranks one matching a single op), then by
  // name, so the order does not depend on static initialization.
  int benefit;
  PatternFn fn;
  // Shardy's debug label (kReshardLabel / kCollectiveLabel), empty if none:
  // its export pipeline canonicalizes with only the patterns of one label.
  std::string_view label = {};
};

inline constexpr std::string_view kReshardLabel = "sdy-reshard";
inline constexpr std::string_view kCollectiveLabel = "sdy-collective";

struct PatternRegistration {
  PatternRegistration(std::string_view opName, std::string_view name, PatternFn fn, int benefit = 1,
                      std::string_view label = {});
};

// The patterns registered for `opName`, in the order they are tried.
const std::vector<Pattern> &patternsFor(std::string_view opName);

// Canonicalizes every function of `m`. Returns false only on an internal
// error (none today); not converging within the iteration limit is not one,
// as in MLIR.
bool canonicalizeModule(Module &m, Diagnostics &diags);
// Same with only the patterns named or labelled in `enabled` (MLIR's
// `-canonicalize='enable-patterns=...'`); erasing dead ops is not a pattern
// and always runs.
bool canonicalizeModule(Module &m, Diagnostics &diags, const std::set<std::string, std::less<>> &enabled);

}  // namespace autopart::canonicalize
