#include <gtest/gtest.h>

#include "asm/Parser.h"
#include "asm/Printer.h"

using namespace autopart;

namespace {

std::string roundTrip(const std::string &text) {
  ParseError err;
  auto m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  if (!m) return {};
  return printModule(*m);
}

TEST(RoundTripTest, PrintsMlirStyleNames) {
  std::string out = roundTrip(R"(
func.func @main(%x: tensor<8x4xf32>, %y: tensor<4x2xf32>) -> tensor<8x2xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x2xf32>
  return %2 : tensor<8x2xf32>
})");
  EXPECT_NE(out.find("func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x2xf32>) -> tensor<8x2xf32> {"),
            std::string::npos) << out;
  EXPECT_NE(out.find("%cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>"), std::string::npos) << out;
  EXPECT_NE(out.find("%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : "
                     "(tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>"),
            std::string::npos) << out;
  EXPECT_NE(out.find("%2 = stablehlo.add %0, %1 : tensor<8x2xf32>"), std::string::npos) << out;
  EXPECT_NE(out.find("return %2 : tensor<8x2xf32>"), std::string::npos) << out;
  EXPECT_EQ(roundTrip(out), out);
}

TEST(RoundTripTest, ReportsLineAndColumnOfErrors) {
  ParseError err;
  auto m = parseModule("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %b : tensor<4xf32>\n}\n",
                       "bad.mlir", &err);
  EXPECT_FALSE(m);
  EXPECT_EQ(err.full, "bad.mlir:2:26: error: use of undeclared SSA value %b");
}

// Found by the parser fuzzer: an op spelled `builtin.module` without a body.
TEST(RoundTripTest, ModuleNamedOpWithoutRegionPrints) {
  ParseError err;
  auto m = parseModule("builtin.module\n", "fuzz.mlir", &err);
  ASSERT_TRUE(m) << err.full;
  EXPECT_EQ(printModule(*m), "module {\n  builtin.module\n}\n");
}

// Found by the parser fuzzer: deeply nested types must not overflow the stack.
TEST(RoundTripTest, DeeplyNestedTypeIsAnError) {
  ParseError err;
  std::string text = "func.func @f(" + std::string(100000, '(') + "\n";
  auto m = parseModule(text, "deep.mlir", &err);
  EXPECT_FALSE(m);
  EXPECT_NE(err.full.find("nesting too deep"), std::string::npos) << err.full;
}

}  // namespace
