// Copies of a function's body for the passes that inline or duplicate
// functions (import-func-calls, flatten-call-graph).
//
//   func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = stablehlo.abs %arg0 ; return %0
//   }
//   cloneBodyRegion(m, foo, "sdy.return")
//   -> a detached region: ^bb0(%a: tensor<8xf32>): %b = stablehlo.abs %a ; sdy.return %b
#pragma once

#include <string_view>

#include "ir/Module.h"

namespace autopart {

// A detached copy of `func`'s body region with fresh block arguments and
// values; its `func.return` becomes `terminator`.
RegionId cloneBodyRegion(Module &m, OpId func, std::string_view terminator);

}  // namespace autopart
