// Completing a partial plan as XLA does: nothing without shardings, the
// arguments' shardings through ops and loops, user priorities honoured.
#include <gtest/gtest.h>

#include "asm/Printer.h"
#include "propagation/CompleteShardings.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using testing::parse;

TEST(CompleteShardings, LeavesAProgramWithoutShardingsAlone) {
  std::unique_ptr<Module> m = parse(R"(
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
)");
  std::string before = printModule(*m);
  Diagnostics diags;
  CompletionStats stats;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, &stats));
  EXPECT_EQ(stats.userShardings, 0u);
  EXPECT_FALSE(stats.propagated);
  EXPECT_EQ(printModule(*m), before);
}

TEST(CompleteShardings, ArgumentShardingReachesTheOpsAndResults) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["model"=2]>
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.tanh %0 : tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
)");
  Diagnostics diags;
  CompletionStats stats;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, &stats));
  EXPECT_EQ(stats.userShardings, 1u);
  EXPECT_TRUE(stats.propagated);
  std::string out = printModule(*m);
  EXPECT_NE(out.find("stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {\"model\", ?}]>]>}"),
            std::string::npos)
      << out;
}

// Loops pass shardings on through data-flow edges, which the completion adds
// and removes again: the loop gets the sharding and no edge is left.
TEST(CompleteShardings, GoesThroughWhileLoopsAndLeavesNoEdges) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["data"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %a, %i = %c0) : tensor<8x8xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare  LT, %i, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.multiply %iterArg, %iterArg : tensor<8x8xf32>
    stablehlo.return %2, %i : tensor<8x8xf32>, tensor<i32>
  }
  return %1#0 : tensor<8x8xf32>
}
)");
  Diagnostics diags;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags));
  std::string out = printModule(*m);
  EXPECT_EQ(out.find("sdy.data_flow_edge"), std::string::npos) << out;
  EXPECT_NE(out.find("stablehlo.multiply %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                     "[{\"data\", ?}, {?}]>]>}"),
            std::string::npos)
      << out;
}

// A framework's wrapper (torch-xla / tt-xla exports): the whole program in
// one manual computation whose in_shardings are the only shardings; XLA
// gives the function's arguments those shardings.
TEST(CompleteShardings, ManualComputationShardingsReachTheArguments) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.add %arg1, %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  Diagnostics diags;
  CompletionStats stats;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, &stats));
  EXPECT_EQ(stats.userShardings, 2u);  // one in, one out
  std::string out = printModule(*m);
  EXPECT_NE(out.find("%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}, {?}]>}"),
            std::string::npos)
      << out;
}

// Two arguments want the add's dimension 0 on different axes: the p0 one
// propagates first and wins, as XLA's user-priority rounds decide.
TEST(CompleteShardings, HonoursUserPriorities) {
  const char *kProgram = R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}PX, {}]>},
                %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}PY, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %x, %y : tensor<8x8xf32>
  %1 = stablehlo.tanh %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";
  auto run = [&](const std::string &px, const std::string &py) {
    std::string text = kProgram;
    text.replace(text.find("PX"), 2, px);
    text.replace(text.find("PY"), 2, py);
    std::unique_ptr<Module> m = parse(text);
    Diagnostics diags;
    EXPECT_TRUE(completeShardingsAsXla(*m, diags));
    return printModule(*m);
  };
  EXPECT_NE(run("p0", "p1").find("stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\", ?}"),
            std::string::npos);
  EXPECT_NE(run("p1", "p0").find("stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"b\", ?}"),
            std::string::npos);
}

}  // namespace
}  // namespace autopart
