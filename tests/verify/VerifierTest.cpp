// The verifier on small programs: each case one Shardy rule, checked by the
// message and the line it is reported at.
#include "verify/Verifier.h"

#include "tests/verify/VerifyTestUtil.h"
#include "verify/DeviceCount.h"

namespace autopart {
namespace {

using testing::verifyError;

TEST(VerifierTest, AcceptsValidShardings) {
  EXPECT_EQ(verifyError(R"(
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}], replicated={"b"}>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
})"),
            "");
}

TEST(VerifierTest, RejectsUnknownAxisOnArgument) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "t.mlir:2:1: error: 'func.func' op arg 0 - unknown axis name: \"c\"");
}

TEST(VerifierTest, RejectsRankMismatchOnSecondResult) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = stablehlo.custom_call @g(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"a"}, {}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
})"),
            "t.mlir:3:10: error: 'stablehlo.custom_call' op result 1 - sharding doesn't match tensor "
            "rank: 2 != 1");
}

TEST(VerifierTest, RejectsUnknownMeshAndCountMismatch) {
  EXPECT_EQ(verifyError(R"(func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nope, [{}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "t.mlir:1:1: error: 'func.func' op arg 0 - unknown mesh: @nope");
  EXPECT_EQ(verifyError(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            "t.mlir:3:8: error: 'stablehlo.abs' op result shardings don't match number of values: 2 "
            "shardings vs 1 values");
}

TEST(VerifierTest, MaximalShardingHasRankZero) {
  EXPECT_EQ(verifyError(R"(sdy.mesh @maximal = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "");
  EXPECT_EQ(verifyError(R"(sdy.mesh @maximal = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            "t.mlir:2:1: error: 'func.func' op arg 0 - a maximal sharding can only have a sharding "
            "with rank 0 and no replicated or unreduced axes.");
}

// The text of every diagnostic of verifying `text`, one per line.
std::string allDiagnostics(const std::string &text) {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return "<parse error>";
  Diagnostics diags;
  verifyModule(*m, diags);
  std::string out;
  for (const Diagnostic &d : diags.all()) out += d.str() + "\n";
  return out;
}

std::string withSharding(const std::string &mesh, const std::string &sharding) {
  return "sdy.mesh @mesh = <" + mesh + ">\n" +
         "func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
         "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[" +
         sharding + "]>} : tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>\n}";
}

TEST(VerifierTest, SubAxes) {
  EXPECT_EQ(verifyError(withSharding(R"(["a"=8])", R"(<@mesh, [{"a":(1)2}, {"a":(2)4}]>)")), "");
  EXPECT_EQ(verifyError(withSharding(R"(["a"=8])", R"(<@mesh, [{"a":(2)4}, {}], replicated={"a":(1)4}>)")),
            "t.mlir:3:8: error: 'stablehlo.add' op result - overlapping sub-axes: \"a\":(1)4, "
            "\"a\":(2)4");
  EXPECT_EQ(verifyError(withSharding(R"(["a"=8])", R"(<@mesh, [{}, {"a":(1)2, "a":(2)2}]>)")),
            "t.mlir:3:8: error: 'stablehlo.add' op result - two consecutive sub-axes can be merged: "
            "\"a\":(1)2, \"a\":(2)2");
  EXPECT_EQ(verifyError(withSharding(R"(["a"=8])", R"(<@mesh, [{}, {"a":(2)3}]>)")),
            "t.mlir:3:8: error: 'stablehlo.add' op result - sub-axis next pre-size 6 doesn't divide "
            "the size of the full axis 8: \"a\":(2)3");
  EXPECT_EQ(verifyError(withSharding(R"(["a"=8])", R"(<@mesh, [{"a"}, {}], unreduced={"a":(1)2}>)")),
            "t.mlir:3:8: error: 'stablehlo.add' op result - both sub-axis and full-axis are used for "
            "axis name: \"a\"");
}

TEST(VerifierTest, ReplicatedAxesFollowTheMesh) {
  EXPECT_EQ(verifyError(withSharding(R"(["b"=2, "a"=2])", R"(<@mesh, [{}, {}], replicated={"b", "a"}>)")),
            "");
  EXPECT_EQ(verifyError(withSharding(R"(["b"=2, "a"=2])", R"(<@mesh, [{}, {}], replicated={"a", "b"}>)")),
            "t.mlir:3:8: error: 'stablehlo.add' op result - replicated axes are not ordered w.r.t. "
            "mesh");
}

TEST(VerifierTest, AxisBoundByManualComputationHasANote) {
  EXPECT_EQ(allDiagnostics(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}]> : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
})"),
            "t.mlir:4:10: error: 'sdy.sharding_constraint' op operates on axis \"a\" which is already "
            "bound by a parent sdy.manual_computation op\n"
            "t.mlir:3:8: note: parent bounding this axis as manual\n");
}

// A function's body is checked before its argument attributes, and checking
// stops at its first error.
TEST(VerifierTest, FirstErrorOfAFunctionOnly) {
  EXPECT_EQ(allDiagnostics(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}]>]>} : tensor<8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"e"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
})"),
            "t.mlir:3:8: error: 'stablehlo.abs' op result - unknown axis name: \"d\"\n");
}

TEST(VerifierTest, ReshardKeepsReductions) {
  const char *program = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"x"}>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced=%s> : tensor<8xf32>
  return %0 : tensor<8xf32>
})";
  auto with = [&](const std::string &unreduced) {
    std::string text = program;
    return text.replace(text.find("%s"), 2, unreduced);
  };
  EXPECT_EQ(verifyError(with(R"(max{"x"})")), "");
  EXPECT_EQ(verifyError(with(R"({"x"})")),
            "t.mlir:3:8: error: 'sdy.reshard' op cannot change the reduction operator of kept "
            "unreduced axes from max to sum.");
  EXPECT_EQ(verifyError(with(R"(max{"x", "y"})")),
            "t.mlir:3:8: error: 'sdy.reshard' op cannot introduce 'max' unreduced axes. Expected "
            "'sum'.");
  EXPECT_EQ(verifyError(with(R"(min{"y"})")),
            "t.mlir:3:8: error: 'sdy.reshard' op cannot introduce 'min' unreduced axes. Expected "
            "'sum'.");
}

TEST(VerifierTest, DataFlowEdges) {
  EXPECT_EQ(verifyError(R"(func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.data_flow_edge %arg0 : tensor<8xf32>
  return %arg0, %0 : tensor<8xf32>, tensor<8xf32>
})"),
            "t.mlir:2:8: error: 'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to have "
            "a single user");
  EXPECT_EQ(verifyError(R"(func.func @f() -> tensor<8xf32> {
  %0 = stablehlo.constant dense<0.0> : tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
})"),
            "t.mlir:3:8: error: 'sdy.func_data_flow_edge' op expected operand of "
            "sdy.func_data_flow_edge to be a result of call op.");
}

TEST(VerifierTest, PropagationEdges) {
  auto edges = [](const std::string &steps) {
    return R"(sdy.mesh @mesh = <["a"=4]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[)" +
           steps + R"(]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
})";
  };
  EXPECT_EQ(verifyError(edges(R"({step-0 = [{"a" = operand-0 -> [result-0]}]})")), "");
  EXPECT_EQ(verifyError(edges(R"({step-0 = [{"a" = operand-0 -> [result-2]}]})")),
            "t.mlir:3:8: error: 'stablehlo.abs' op expected a value ref to have a result index in "
            "range [0, 1), got: 2");
  EXPECT_EQ(verifyError(edges(R"({step-0 = [{"b" = operand-0 -> [result-0]}]})")),
            "t.mlir:3:8: error: 'stablehlo.abs' op expected axis ref to be in one of the meshes");
  EXPECT_EQ(verifyError(edges(R"({step-2 = []}, {step-2 = []})")),
            "t.mlir:3:8: error: 'stablehlo.abs' op propagation edges have duplicate step index: 2");
}
TEST(DeviceCountTest, OneCountPerModuleMaximalAside) {
  std::unique_ptr<Module> same = testing::parse(R"(sdy.mesh @a = <["x"=8]>
sdy.mesh @b = <["y"=2, "z"=4]>
sdy.mesh @m = <[], device_ids=[3]>
)");
  Diagnostics diags;
  EXPECT_TRUE(verifyOneDeviceCount(*same, diags));
  std::unique_ptr<Module> mixed = testing::parse(R"(sdy.mesh @a = <["x"=8]>
sdy.mesh @m = <[], device_ids=[3]>
sdy.mesh @b = <["y"=4]>
)");
  EXPECT_FALSE(verifyOneDeviceCount(*mixed, diags));
  EXPECT_EQ(diags.errorText(), "t.mlir:3:1: error: mesh @b has 4 devices, but mesh @a has 8: XLA partitions a "
                               "module over one number of devices (maximal meshes aside)");
}

}  // namespace
}  // namespace autopart
