// Disjoint sets over 0..n-1 with path halving; the smaller index is always
// the root, so a class is named by its first member and results do not
// depend on the order of joins.
//
//   UnionFind uf(4);  uf.join(3, 1);  uf.join(1, 2);
//   -> uf.find(3) == uf.find(2) == 1, uf.find(0) == 0
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace autopart {

class UnionFind {
public:
  explicit UnionFind(size_t n) : parent_(n) {
    for (size_t i = 0; i < n; ++i) parent_[i] = uint32_t(i);
  }
  uint32_t find(uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

private:
  std::vector<uint32_t> parent_;
};

}  // namespace autopart
