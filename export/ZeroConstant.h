// The literal of a zero of a tensor's element type, as a `dense<...>` body:
// what ops that fill in for absent data (a device that does not run an op,
// the padding a halo exchange adds) write.
//
//   tensor<8x16xf32> -> "0.000000e+00"   tensor<4xi32> -> "0"
//   tensor<2xi1> -> "false"              tensor<complex<f32>> -> "(0.000000e+00,0.000000e+00)"
#pragma once

#include <optional>
#include <string>

#include "ir/Types.h"

namespace autopart {

// Nullopt for element types without a zero literal (opaque types).
std::optional<std::string> zeroLiteral(const TypeTable &types, TypeId tensorType);

}  // namespace autopart
