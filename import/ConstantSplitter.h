// `-sdy-constant-or-scalar-splitter`: gives every non-constant user of a
// constant sub-computation (and of a broadcast of a scalar) a copy of its
// own, so propagation does not tie the shardings of unrelated uses together
// through a shared constant. Constants become `sdy.constant` (which the
// canonicalizer does not fold back together).
//
//   %0 = stablehlo.constant dense<1.0> : tensor<8x16xf32>
//   %1 = stablehlo.negate %0
//   return %0, %1
//   ->
//   %0 = sdy.constant dense<1.0>        (for the return)
//   %1 = sdy.constant dense<1.0>        (for the negate, itself a constant
//   %2 = stablehlo.negate %1             expression cloned for the return)
//   return %0, %2
//
// A constant sub-computation is a constant or iota, or a pure broadcast,
// reshape, slice or elementwise op whose operands all are constant
// sub-computations. A named computation or call is one too when its
// operands are and its body holds only such ops (a copied call gets a copy
// of its callee, `foo_0`, ...). A named computation's body is split as a
// scope of its own; functions are split callees first, so a copy is made of
// a function already split and is not split again. Scalars (rank 0)
// are never copied: they are not sharded. `sdy.sharding_group` users of a
// copied value are copied with it.
#pragma once

#include "ir/Module.h"

namespace autopart {

// Splits the constants of every function; returns the number of ops copied.
size_t splitConstantsAndScalars(Module &m);

}  // namespace autopart
