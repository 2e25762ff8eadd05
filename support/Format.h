// Human-readable quantities for the reports the tools and the simulator print.
// It sits in ir/, the lowest layer, so that sim/ and tools/ share one
// spelling without sim/ depending on tools/.
//
//   formatSeconds(1.8127)    -> "1.813 s"
//   formatSeconds(0.03948)   -> "39.480 ms"
//   formatSeconds(5.1672e-6) -> "5.167 us"
//   formatBytes(80e9)        -> "74.51 GiB"
#pragma once

#include <string>

namespace autopart {

// Three decimals in the largest unit (s, ms, us) the duration reaches; below
// a millisecond it is always microseconds.
std::string formatSeconds(double s);

// Binary units, two decimals above bytes: formatBytes(1536) -> "1.50 KiB",
// formatBytes(512) -> "512 B".
std::string formatBytes(double bytes);
// Always GiB, for columns compared across rows: formatGiB(3 << 29) -> "1.50 GiB".
std::string formatGiB(double bytes);

}  // namespace autopart
