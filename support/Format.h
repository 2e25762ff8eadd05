// Human-readable quantities for the reports the tools and the simulator print.
// It sits in ir/, the lowest layer, so that sim/ and tools/ share one
// spelling without sim/ depending on tools/.
//
//   formatSeconds(1.8127)    -> "1.813 s"
//   formatSeconds(0.03948)   -> "39.480 ms"
//   formatSeconds(5.1672e-6) -> "5.167 us"
#pragma once

#include <string>

namespace autopart {

// Three decimals in the largest unit (s, ms, us) the duration reaches; below
// a millisecond it is always microseconds.
std::string formatSeconds(double s);

}  // namespace autopart
