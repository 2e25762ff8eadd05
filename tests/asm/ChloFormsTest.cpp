// CHLO pretty forms (asm/ChloSyntax.cpp): read into operands, result types
// and attributes (checked in the generic form), printed back the same way.
#include <gtest/gtest.h>

#include "tests/asm/FormCheck.h"

using namespace autopart;
using autopart::testing::expectForm;

namespace {


TEST(ChloFormsTest, UnaryOpHasArrowType) {
  expectForm("%a: tensor<4xf32>", "  %0 = chlo.erf %a : tensor<4xf32> -> tensor<4xf32>",
             "chlo.erf %arg0 : tensor<4xf32> -> tensor<4xf32>",
             "\"chlo.erf\"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>");
}

TEST(ChloFormsTest, TopKReadsK) {
  expectForm("%a: tensor<5x3xf32>",
             "  %v, %i = chlo.top_k(%a, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)",
             "chlo.top_k(%arg0, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)",
             "k = 2 : i64");
}

TEST(ChloFormsTest, BroadcastBinaryKeepsBroadcastDimensions) {
  expectForm("%a: tensor<4xf32>, %b: tensor<2x4xf32>",
             "  %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : "
             "(tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>",
             "chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : "
             "(tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>",
             "broadcast_dimensions = array<i64: 1>");
}

TEST(ChloFormsTest, BinaryWithTypeListBeforeArrow) {
  expectForm("%x: tensor<4xf32>, %q: tensor<4xf32>",
             "  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>",
             "chlo.zeta %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>",
             "\"chlo.zeta\"(%arg0, %arg1) :");
}

TEST(ChloFormsTest, ScanSplitsInputsAndInits) {
  expectForm("%x: tensor<4xi32>, %c: tensor<i32>",
             "  %0:2 = chlo.scan(%x) inits(%c) dimension=0 attributes {is_reverse = true} {\n"
             "  ^bb0(%e: tensor<i32>, %s: tensor<i32>):\n"
             "    %1 = stablehlo.add %e, %s : tensor<i32>\n"
             "    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>\n"
             "  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)",
             "chlo.scan(%arg0) inits(%arg1) dimension=0 attributes {is_reverse = true} {",
             "operandSegmentSizes = array<i32: 1, 1>");
}

}  // namespace
