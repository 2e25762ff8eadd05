// support/SplitInput: `// -----` chunks keep the line numbers of the file.
#include <gtest/gtest.h>

#include "support/SplitInput.h"

using namespace autopart;

TEST(SplitInputTest, ChunksArePaddedToTheirFileLines) {
  std::vector<std::string> c = splitInputFile("a\n  // -----\nb\nc\n// ----- x\nd");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], "a\n");
  EXPECT_EQ(c[1], "\n\nb\nc\n");
  EXPECT_EQ(c[2], "\n\n\n\n\nd\n");
}

TEST(SplitInputTest, NoSeparatorIsOneChunk) {
  std::vector<std::string> c = splitInputFile("x // ----- not at line start\n");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "x // ----- not at line start\n\n");
}
