// Compressed rows: for each of `rows` keys, the items listed for it, in one
// array (the layout the simulator and kernel grouping use for "the sites that
// read each value", "the ops that use each value", "the kernels of each
// site"). Built in two passes over the same enumeration, so no per-row
// vectors are allocated.
//
//   Csr uses = buildCsr(numValues, [&](auto &&emit) {
//     for (uint32_t i = 0; i < numSites; ++i)
//       for (ValueId v : operandsOf(i)) emit(v, i);
//   });
//   for (uint32_t site : uses.row(v)) ...
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace autopart {

struct Csr {
  std::vector<uint32_t> begin;  // rows + 1 offsets into items
  std::vector<uint32_t> items;

  std::span<const uint32_t> row(size_t r) const {
    if (r + 1 >= begin.size()) return {};
    return {items.data() + begin[r], begin[r + 1] - begin[r]};
  }
};

// `forEach(emit)` calls `emit(row, item)` for every entry, the same way both
// times it is called; items keep that order within each row.
template <typename ForEach>
Csr buildCsr(size_t rows, ForEach &&forEach) {
  Csr c;
  c.begin.assign(rows + 1, 0);
  forEach([&](size_t row, uint32_t) { ++c.begin[row + 1]; });
  for (size_t r = 0; r < rows; ++r) c.begin[r + 1] += c.begin[r];
  c.items.resize(c.begin[rows]);
  std::vector<uint32_t> fill(c.begin.begin(), c.begin.end() - 1);
  forEach([&](size_t row, uint32_t item) { c.items[fill[row]++] = item; });
  return c;
}

}  // namespace autopart
