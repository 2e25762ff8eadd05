// Report formatting: durations in the largest unit they reach, three
// decimals, with the unit boundaries exactly at 1 ms and 1 s; bytes in
// binary units.
#include <gtest/gtest.h>

#include "support/Format.h"

namespace autopart {
namespace {

TEST(Format, SecondsPickTheLargestUnitReached) {
  EXPECT_EQ(formatSeconds(1.8127), "1.813 s");
  EXPECT_EQ(formatSeconds(0.03948), "39.480 ms");
  EXPECT_EQ(formatSeconds(5.1672e-6), "5.167 us");
  EXPECT_EQ(formatSeconds(1.0), "1.000 s");
  EXPECT_EQ(formatSeconds(1e-3), "1.000 ms");
  EXPECT_EQ(formatSeconds(0.0), "0.000 us");
  EXPECT_EQ(formatSeconds(120.5), "120.500 s");
}

TEST(Format, BytesInBinaryUnits) {
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1536), "1.50 KiB");
  EXPECT_EQ(formatBytes(80e9), "74.51 GiB");
  EXPECT_EQ(formatBytes(1024.0 * 1024 * 1024 * 1024 * 2048), "2048.00 TiB");
  EXPECT_EQ(formatGiB(3 << 29), "1.50 GiB");
  EXPECT_EQ(formatGiB(0), "0.00 GiB");
}

}  // namespace
}  // namespace autopart
