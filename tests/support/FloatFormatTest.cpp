// MLIR's float spellings: six-decimal scientific form when it reads back
// exactly, else APFloat's default form, hexadecimal literals untouched.
#include <gtest/gtest.h>

#include <cmath>

#include "support/FloatFormat.h"

namespace autopart {
namespace {

TEST(FloatFormat, ScientificWhenSixDigitsReadBack) {
  EXPECT_EQ(formatMlirFloat(1.0, true), "1.000000e+00");
  EXPECT_EQ(formatMlirFloat(0.0, true), "0.000000e+00");
  EXPECT_EQ(formatMlirFloat(-0.0, true), "-0.000000e+00");
  EXPECT_EQ(formatMlirFloat(0.1, true), "1.000000e-01");
  EXPECT_EQ(formatMlirFloat(-2.5e-7, true), "-2.500000e-07");
  EXPECT_EQ(formatMlirFloat(123456.0, true), "1.234560e+05");
  EXPECT_EQ(formatMlirFloat(1e100, false), "1.000000e+100");
}

TEST(FloatFormat, DefaultFormWhenSixDigitsLoseBits) {
  EXPECT_EQ(formatMlirFloat(3.14159265358979, true), "3.14159274");
  // 17 digits 0.12345678899999999|7 round up and carry.
  EXPECT_EQ(formatMlirFloat(0.123456789, false), "0.123456789");
  EXPECT_EQ(formatMlirFloat(1.2345678e-10, true), "1.23456786E-10");
  // An integer that needs more than six digits has no '.' in APFloat's
  // default form, so MLIR prints it in hexadecimal.
  EXPECT_EQ(formatMlirFloat(16777217.0, false), std::nullopt);
  EXPECT_EQ(formatMlirFloat(HUGE_VAL, true), std::nullopt);
}

TEST(FloatFormat, ElementsKeepTheirStructure) {
  EXPECT_EQ(canonicalFloatElements("1.0", true), "1.000000e+00");
  EXPECT_EQ(canonicalFloatElements("[[1.0, -2.5e-1], [0x7FC00000, 3]]", true),
            "[[1.000000e+00, -2.500000e-01], [0x7FC00000, 3.000000e+00]]");
  EXPECT_EQ(canonicalFloatElements("1.000000e+00", true), std::nullopt);
  EXPECT_EQ(canonicalFloatElements("\"0x0000803F\"", true), std::nullopt);
}

}  // namespace
}  // namespace autopart
