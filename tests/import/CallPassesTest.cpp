// The passes on calls: import-func-calls inlines into named computations,
// flatten-call-graph copies callees, add-func-data-flow-edges marks call
// boundaries, propagate-sharding-from-func-to-call and pre-order-funcs.
#include <gtest/gtest.h>

#include "import/CallGraph.h"

#include "tests/import/ImportTestUtil.h"

namespace autopart {
namespace {

using testing::count;
using testing::runPass;

constexpr const char *kTwoCalls = R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @foo(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
})";

TEST(ImportFuncCalls, CallsBecomeNamedComputationsWithEdges) {
  std::string out = runPass(kTwoCalls, "sdy-import-func-calls");
  EXPECT_EQ(count(out, "sdy.named_computation<\"foo\">"), 2u);
  EXPECT_EQ(out.find("func.func private @foo"), std::string::npos);  // callee erased
  EXPECT_NE(out.find("in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{\"x\"}]>]"), std::string::npos) << out;
  // One edge per block argument and per result of each computation.
  EXPECT_EQ(count(out, "sdy.data_flow_edge"), 4u);
}

TEST(ImportFuncCalls, EdgesCanBeLeftOut) {
  std::string out = runPass(kTwoCalls, "sdy-import-func-calls", "add-data-flow-edges-on-named-computations=false");
  EXPECT_EQ(count(out, "sdy.data_flow_edge"), 0u);
}

TEST(FlattenCallGraph, SecondCallGetsACopy) {
  std::string out = runPass(kTwoCalls, "sdy-flatten-call-graph");
  EXPECT_NE(out.find("call @foo("), std::string::npos);
  EXPECT_NE(out.find("call @foo_0("), std::string::npos);
  EXPECT_NE(out.find("func.func private @foo_0("), std::string::npos);
}

TEST(AddFuncDataFlowEdges, CalleeArgumentsAndCallResults) {
  std::string out = runPass(kTwoCalls, "sdy-add-func-data-flow-edges");
  // @foo's argument (sharded: the edge carries it) and both call results.
  EXPECT_EQ(count(out, "sdy.func_data_flow_edge"), 3u);
  EXPECT_NE(out.find("sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}"),
            std::string::npos)
      << out;
}

TEST(PropagateShardingFromFuncToCall, OnlyCallsWithoutShardings) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @foo(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
})",
                            "sdy-propagate-sharding-from-func-to-call");
  EXPECT_EQ(count(out, "#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>"), 1u) << out;
  EXPECT_EQ(count(out, "#sdy.sharding_per_value<[<@mesh, [{}]>]>"), 1u) << out;
}

TEST(CallGraph, PostOrderPutsCalleesFirst) {
  std::unique_ptr<Module> m = testing::parse(R"(
func.func @main() { func.call @a() : () -> () return }
func.func @a() { func.call @b() : () -> () return }
func.func @b() { return })");
  ASSERT_TRUE(m);
  std::vector<std::string> names;
  for (OpId f : callGraphPostOrder(*m)) names.emplace_back(FuncView{*m, f}.name());
  EXPECT_EQ(names, (std::vector<std::string>{"b", "a", "main"}));
  std::string out = runPass(R"(
func.func @b() { return }
func.func @a() { func.call @b() : () -> () return }
func.func @main() { func.call @a() : () -> () return })",
                            "sdy-pre-order-funcs");
  EXPECT_LT(out.find("@main"), out.find("func.func @a"));
  EXPECT_LT(out.find("func.func @a"), out.find("func.func @b"));
}

TEST(CallGraph, ReachableFunctionsFromARootCallersFirst) {
  std::unique_ptr<Module> m = testing::parse(R"(
func.func @unused() { func.call @b() : () -> () return }
func.func @main() { func.call @a() : () -> () func.call @b() : () -> () return }
func.func @a() { func.call @b() : () -> () return }
func.func @b() { func.call @a() : () -> () return })");
  ASSERT_TRUE(m);
  std::vector<std::string> names;
  for (OpId f : reachableFunctions(*m, m->functions()[1])) names.emplace_back(FuncView{*m, f}.name());
  // Each once although @a and @b call each other; @unused is not reached.
  EXPECT_EQ(names, (std::vector<std::string>{"main", "a", "b"}));
  EXPECT_TRUE(reachableFunctions(*m, kNone).empty());
}

}  // namespace
}  // namespace autopart
