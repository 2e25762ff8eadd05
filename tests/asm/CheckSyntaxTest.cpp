// Forms of StableHLO's test dialects (asm/CheckSyntax.cpp): the `check`
// assertions and interpreter.probe are read into operands and attributes
// (checked in the generic form) and printed back in the same pretty form.
#include <gtest/gtest.h>

#include "tests/asm/FormCheck.h"

using namespace autopart;

namespace {

// The operands every case here checks.
void expectForm(const std::string &body, const std::string &pretty, const std::string &generic) {
  autopart::testing::expectForm("%a: tensor<2xf64>, %b: tensor<2xf64>", body, pretty, generic);
}

TEST(CheckSyntaxTest, ConstCheckHoldsTheLiteralAsValue) {
  expectForm("  check.expect_eq_const %a,\n    dense<[1.0, 2.0]> : tensor<2xf64>",
             "check.expect_eq_const %arg0, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>",
             "\"check.expect_eq_const\"(%arg0) {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>}");
}

TEST(CheckSyntaxTest, ToleranceKeywordOrDictionary) {
  expectForm("  check.expect_almost_eq_const %a, dense<5.1> : tensor<2xf64> {tolerance = 0.1 : f64}",
             "dense<5.100000e+00> : tensor<2xf64>, tolerance = 0.1", "tolerance = 0.1");
  expectForm("  check.expect_almost_eq %a, %b, tolerance = 0.001 : tensor<2xf64>",
             "check.expect_almost_eq %arg0, %arg1, tolerance = 0.001 : tensor<2xf64>", "tolerance = 0.001");
}

TEST(CheckSyntaxTest, UlpLimitsAreUnsigned) {
  expectForm("  check.expect_close %a, %b, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf64>, tensor<2xf64>",
             "max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf64>, tensor<2xf64>",
             "max_ulp_difference = 3 : ui64");
}

TEST(CheckSyntaxTest, ProbeReturnsItsOperand) {
  expectForm("  %p = interpreter.probe %a, probe_id = \"p0\" : tensor<2xf64>\n"
             "  check.expect_serialized_eq %p, probe_id = \"p0\", iter = 2 : tensor<2xf64>",
             "check.expect_serialized_eq %0, probe_id = \"p0\", iter = 2 : tensor<2xf64>",
             "\"interpreter.probe\"(%arg0) {probe_id = \"p0\"} : (tensor<2xf64>) -> tensor<2xf64>");
}

TEST(CheckSyntaxTest, MissingLiteralIsAnError) {
  ParseError err;
  auto m = parseModule("func.func @f(%a: tensor<2xf64>) {\n  check.expect_eq_const %a, 3 : i64\n  return\n}\n",
                       "t.mlir", &err);
  EXPECT_FALSE(m);
  EXPECT_NE(err.full.find("dense elements literal"), std::string::npos) << err.full;
}

}  // namespace
