// Adding and sinking data-flow edges, and the local/global views of manual
// computation shardings.
#include <gtest/gtest.h>

#include "asm/Printer.h"
#include "propagation/DataFlowEdges.h"

#include "tests/TestUtil.h"
#include "tests/propagation/WhileProgram.h"

namespace autopart {
namespace {

using testing::kWhile;
using testing::parse;

AxisRef full(const char *n) { return AxisRef{n, 0, 0}; }

TEST(DataFlowEdges, ManualAxesViewStripsAndRestoresManualAxes) {
  TensorSharding global = TensorSharding::open("mesh", 2);
  global.dims[0].axes = {full("b"), full("a")};
  global.replicated = {full("c")};
  ManualAxesView view = ManualAxesView::of(global, {"b", "c"});
  TensorSharding local = view.toLocal(global);
  EXPECT_EQ(local.dims[0].axes, AxisList({full("a")}));
  EXPECT_TRUE(local.replicated.empty());
  EXPECT_EQ(view.toGlobal(local), global);
}

TEST(DataFlowEdges, AddThenSinkRoundTrips) {
  std::unique_ptr<Module> m = parse(kWhile);
  std::string before = printModule(*m);
  EXPECT_EQ(addDataFlowEdges(*m), 2u);  // both while results
  std::string withEdges = printModule(*m);
  EXPECT_NE(withEdges.find("sdy.data_flow_edge %0#0 : tensor<8xf32>"), std::string::npos);
  // The abs now reads the edge, not the while result.
  EXPECT_NE(withEdges.find("stablehlo.abs %1 "), std::string::npos);
  EXPECT_EQ(sinkDataFlowEdges(*m), 2u);
  EXPECT_EQ(printModule(*m), before);
}

TEST(DataFlowEdges, SinkMovesTheEdgeShardingOntoTheOwner) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)");
  EXPECT_EQ(sinkDataFlowEdges(*m), 1u);
  std::string out = printModule(*m);
  EXPECT_NE(out.find("sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\", ?}]>]>"), std::string::npos);
  EXPECT_EQ(out.find("data_flow_edge"), std::string::npos);
  EXPECT_NE(out.find("return %0"), std::string::npos);
}

}  // namespace
}  // namespace autopart
