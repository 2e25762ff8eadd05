// The identity of a reduce body's combining op: the value that padding along
// a reduced dimension must hold so the extra elements change nothing. A
// padded reduce operand is masked with it (pad-for-divisibility), unless its
// padding already holds it (zeros under an add).
//
//   stablehlo.reduce(%x init: %c) applies stablehlo.add       -> 0
//   ... applies stablehlo.multiply                             -> 1
//   ... applies stablehlo.maximum   (f32)                      -> -inf, 0xFF800000
//   ... applies stablehlo.minimum   (i32)                      -> 2147483647
//   ... applies stablehlo.and       (i32 / i1)                 -> -1 / true
//   a body that does anything else                             -> nullopt
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

struct ReductionIdentity {
  std::string spelling;  // the `dense<...>` body for a rank-0 constant
  bool isZero = false;   // zero padding already holds it
};

// For each input of stablehlo.reduce `op`, the identity of the op that
// combines it, when every result is one supported elementwise op of the
// accumulator and the element block arguments of that input.
std::optional<std::vector<ReductionIdentity>> reductionIdentities(const Module &m, OpId op);

}  // namespace autopart
