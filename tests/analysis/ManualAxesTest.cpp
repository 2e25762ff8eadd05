// The axes enclosing manual computations bind at each value: nested bodies
// add up, values outside (operands, results) are free, and a function
// called from inside a body takes its caller's axes.
#include "analysis/ManualAxes.h"

#include <gtest/gtest.h>

#include "asm/Parser.h"

namespace autopart {
namespace {

std::unique_ptr<Module> parse(const std::string &text) {
  ParseError err;
  auto m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

std::vector<std::string> bound(const ManualAxes &manual, ValueId v) {
  std::span<const std::string> s = manual.of(v);
  return {s.begin(), s.end()};
}

// The value an op named `name` defines first in `func` (program order).
ValueId resultOf(const Module &m, OpId func, std::string_view name) {
  ValueId found = kNone;
  m.walk(func, [&](OpId op) {
    if (found == kNone && m.isa(op, name) && m.numResults(op)) found = m.result(op);
  });
  return found;
}

constexpr const char *kNested = R"(
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y"} (%arg2: tensor<2x4xf32>) {
      %2 = stablehlo.negate %arg2 : tensor<2x4xf32>
      sdy.return %2 : tensor<2x4xf32>
    } : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.abs %1 : tensor<4x4xf32>
    sdy.return %3 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %4 = stablehlo.add %0, %0 : tensor<8x4xf32>
  return %4 : tensor<8x4xf32>
})";

TEST(ManualAxes, NestedComputationsAddUp) {
  auto m = parse(kNested);
  ASSERT_TRUE(m);
  OpId func = m->functions().front();
  ManualAxes manual(*m);
  EXPECT_FALSE(manual.none());
  ValueId arg0 = FuncView{*m, func}.args()[0];
  ValueId outer = resultOf(*m, func, "sdy.manual_computation");
  ValueId neg = resultOf(*m, func, "stablehlo.negate");
  ValueId abs = resultOf(*m, func, "stablehlo.abs");
  ValueId add = resultOf(*m, func, "stablehlo.add");
  ValueId innerArg = m->operand(m->definingOp(neg), 0);
  EXPECT_EQ(bound(manual, arg0), std::vector<std::string>{});
  EXPECT_EQ(bound(manual, outer), std::vector<std::string>{});
  EXPECT_EQ(bound(manual, add), std::vector<std::string>{});
  EXPECT_EQ(bound(manual, abs), (std::vector<std::string>{"x"}));
  EXPECT_EQ(bound(manual, m->operand(m->definingOp(abs), 0)), (std::vector<std::string>{"x"}));  // inner result
  EXPECT_EQ(bound(manual, neg), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(bound(manual, innerArg), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(manual.binds(neg, "y"));
  EXPECT_FALSE(manual.binds(neg, "z"));
  EXPECT_FALSE(manual.binds(add, "x"));
}

TEST(ManualAxes, ConflictsLooksAtEveryAxisOfASharding) {
  auto m = parse(kNested);
  ASSERT_TRUE(m);
  OpId func = m->functions().front();
  ManualAxes manual(*m);
  ValueId abs = resultOf(*m, func, "stablehlo.abs");
  ValueId add = resultOf(*m, func, "stablehlo.add");
  TensorSharding free = TensorSharding::closed("mesh", 2);
  free.dims[1].axes.push_back(AxisRef{"z", 0, 0});
  EXPECT_FALSE(manual.conflicts(abs, free));
  TensorSharding onX = free;
  onX.dims[0].axes.push_back(AxisRef{"x", 0, 0});
  EXPECT_TRUE(manual.conflicts(abs, onX));
  EXPECT_FALSE(manual.conflicts(add, onX));
  TensorSharding subAxis = free;  // "x":(1)2 is part of "x"
  subAxis.dims[0].axes.push_back(AxisRef{"x", 1, 2});
  EXPECT_TRUE(manual.conflicts(abs, subAxis));
  TensorSharding replicatedX = free;
  replicatedX.replicated.push_back(AxisRef{"x", 0, 0});
  EXPECT_TRUE(manual.conflicts(abs, replicatedX));
}

// @body is called from inside the body over "x" and from outside: its values
// are one device's slice at the first call site, so "x" is bound there.
TEST(ManualAxes, CalleesTakeTheirCallSitesAxes) {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @twice(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @plain(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %2 : tensor<8xf32>, tensor<8xf32>
}
func.func private @twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @leaf(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @leaf(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @plain(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  ASSERT_TRUE(m);
  ManualAxes manual(*m);
  OpId twice = m->lookupSymbol("twice"), leaf = m->lookupSymbol("leaf"), plain = m->lookupSymbol("plain");
  ASSERT_NE(twice, kNone);
  ASSERT_NE(leaf, kNone);
  ASSERT_NE(plain, kNone);
  EXPECT_EQ(bound(manual, FuncView{*m, twice}.args()[0]), (std::vector<std::string>{"x"}));
  EXPECT_EQ(bound(manual, resultOf(*m, twice, "stablehlo.add")), (std::vector<std::string>{"x"}));
  EXPECT_EQ(bound(manual, resultOf(*m, leaf, "stablehlo.negate")), (std::vector<std::string>{"x"}));  // transitively
  EXPECT_EQ(bound(manual, resultOf(*m, plain, "stablehlo.abs")), std::vector<std::string>{});
}

TEST(ManualAxes, ProgramWithoutManualComputationBindsNothing) {
  auto m = parse(R"(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  ASSERT_TRUE(m);
  ManualAxes manual(*m);
  EXPECT_TRUE(manual.none());
  EXPECT_FALSE(manual.binds(resultOf(*m, m->functions().front(), "stablehlo.negate"), "x"));
}

}  // namespace
}  // namespace autopart
