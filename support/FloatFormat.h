// MLIR's spelling of f32 / f64 values, so that printed `dense<...>` constants
// match FileCheck lines written against mlir-opt. MLIR prints a float in
// scientific form with six decimals when that spelling reads back as the same
// value, and otherwise in APFloat's shortest default form (9 significant
// digits for f32, 17 for f64):
//
//   formatMlirFloat(1.0, true)        -> "1.000000e+00"
//   formatMlirFloat(0.1f, true)       -> "1.000000e-01"
//   formatMlirFloat(3.14159274, true) -> "3.14159274"
//   canonicalFloatElements("[1.0, -2.5e-1]", true)
//                                     -> "[1.000000e+00, -2.500000e-01]"
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace autopart {

// The spelling of `v` as a value of type f32 (`isF32`) or f64; nullopt when
// MLIR would print it in hexadecimal (NaN, infinities, huge integers).
std::optional<std::string> formatMlirFloat(double v, bool isF32);

// The body of a `dense<...>` attribute of f32 / f64 elements with every
// decimal literal re-spelled as MLIR prints it; nullopt when nothing changes
// (hexadecimal strings and hexadecimal literals are kept as written).
std::optional<std::string> canonicalFloatElements(std::string_view body, bool isF32);

}  // namespace autopart
