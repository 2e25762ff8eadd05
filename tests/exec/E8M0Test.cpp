// f8E8M0FNU (exponent-only, unsigned: code e is 2^(e - 127), 0xFF is NaN)
// against hand-computed values, and StableHLO's constant test for it
// (stablehlo/tests/interpret/constant.mlir, @constant_op_test_f8_e8m0fnu).
#include <gtest/gtest.h>

#include <cmath>

#include "exec/FloatFormat.h"
#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

TEST(ExecE8M0, RoundsToPowersOfTwoWithoutZeroOrSign) {
  FloatFormat f = floatFormatByName("f8E8M0FNU");
  ASSERT_TRUE(f.valid());
  EXPECT_FALSE(f.hasSign());
  EXPECT_EQ(f.totalBits(), 8);
  EXPECT_EQ(f.maxFinite(), std::ldexp(1.0, 127));
  EXPECT_EQ(f.round(1.0), 1.0);
  EXPECT_EQ(f.round(0.1), 0.125);    // nearer 0.125 than 0.0625
  EXPECT_EQ(f.round(3.1415), 4.0);   // nearer 4 than 2
  EXPECT_EQ(f.round(3.0), 4.0);      // a tie goes up (the significand is 1)
  EXPECT_EQ(f.round(2.9), 2.0);
  EXPECT_EQ(f.round(0.0), std::ldexp(1.0, -127));  // no zero: the smallest code
  EXPECT_TRUE(std::isnan(f.round(-1.0)));          // no sign
  EXPECT_TRUE(std::isnan(f.round(INFINITY)));      // no infinity
  EXPECT_TRUE(std::isnan(f.round(std::ldexp(1.0, 128))));
  EXPECT_EQ(f.encode(1.0), 0x7fu);
  EXPECT_EQ(f.encode(2.0), 0x80u);
  EXPECT_EQ(f.encode(std::ldexp(1.0, -127)), 0x00u);
  EXPECT_EQ(f.encode(NAN), 0xffu);
  EXPECT_EQ(f.decode(0x00), std::ldexp(1.0, -127));
  EXPECT_EQ(f.decode(0xfe), std::ldexp(1.0, 127));
  EXPECT_TRUE(std::isnan(f.decode(0xff)));
}

TEST(ExecE8M0, ConstantsConvertAndBitcast) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @f() {
  %0 = stablehlo.constant dense<[0.0, 1.0, 0.125, 0.1, 3.1415, 0x00, 0x80, 0xFF]> : tensor<8xf8E8M0FNU>
  check.expect_almost_eq_const %0, dense<[0.0, 1.0, 0.125, 0.125, 4.0, 1.175490e-38, 2.0, 0xFF]> : tensor<8xf8E8M0FNU>
  %1 = stablehlo.bitcast_convert %0 : (tensor<8xf8E8M0FNU>) -> tensor<8xui8>
  check.expect_eq_const %1, dense<[0, 127, 124, 124, 129, 0, 128, 255]> : tensor<8xui8>
  %2 = stablehlo.convert %0 : (tensor<8xf8E8M0FNU>) -> tensor<8xf32>
  %3 = stablehlo.slice %2 [1:5] : (tensor<8xf32>) -> tensor<4xf32>
  check.expect_eq_const %3, dense<[1.0, 0.125, 0.125, 4.0]> : tensor<4xf32>
  %4 = stablehlo.multiply %0, %0 : tensor<8xf8E8M0FNU>
  %5 = stablehlo.bitcast_convert %4 : (tensor<8xf8E8M0FNU>) -> tensor<8xui8>
  check.expect_eq_const %5, dense<[0, 127, 121, 121, 131, 0, 129, 255]> : tensor<8xui8>
  func.return
})");
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {"", "zeros", 0, {}});
  for (const CheckFailure &f : r.failures) ADD_FAILURE() << m->where(f.op) << ": " << f.message;
  EXPECT_EQ(r.checksTotal, 4);
  EXPECT_EQ(r.checksPassed, 4);
}

}  // namespace
}  // namespace autopart::exec
