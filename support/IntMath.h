// Small integer helpers shared by the passes that tile shapes over shards.
//
//   ceilDiv(10, 4) == 3   (a 10-long dimension over 4 shards: tiles of 3,
//                          the last one partly padding)
#pragma once

#include <cstdint>

namespace autopart {

constexpr int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace autopart
