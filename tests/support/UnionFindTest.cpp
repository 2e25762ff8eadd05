#include <gtest/gtest.h>

#include "support/UnionFind.h"

namespace autopart {
namespace {

TEST(UnionFind, TheSmallestMemberNamesItsClassWhateverTheJoinOrder) {
  UnionFind uf(5);
  uf.join(3, 1);
  uf.join(4, 3);
  uf.join(2, 4);
  EXPECT_EQ(uf.find(4), 1u);
  EXPECT_EQ(uf.find(2), 1u);
  EXPECT_EQ(uf.find(3), 1u);
  EXPECT_EQ(uf.find(0), 0u);
  uf.join(1, 0);
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(uf.find(i), 0u);
}

}  // namespace
}  // namespace autopart
