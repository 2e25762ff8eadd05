// Which ops the canonicalizer may delete once nothing reads their results,
// as MLIR's "trivially dead" ops: those that declare no memory effects
// (stablehlo arithmetic and data movement, sdy.reshard, constants), and ops
// with regions whose effects are those of their bodies (stablehlo.reduce,
// sdy.manual_computation) when everything inside qualifies. Anything else —
// collectives, custom calls, calls, I/O, unknown dialects — is assumed to have
// side effects and is kept.
//
//   %0 = stablehlo.sine %arg0          unused -> dead
//   %1 = sdy.all_gather [{"x"}] %arg0  unused -> kept (a collective)
//   stablehlo.custom_call @foo() {has_side_effect = true}  -> kept
#pragma once

#include "canonicalize/Rewriter.h"

namespace autopart::canonicalize {

// `op` and everything nested in it have no side effects.
bool isSideEffectFree(const Module &m, OpId op);

// `op` can be erased: free of side effects, not a terminator, and none of its
// results is used.
bool isTriviallyDead(const Rewriter &rw, OpId op);

}  // namespace autopart::canonicalize
