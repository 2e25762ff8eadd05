// Pinning a plan against XLA's propagation: ops the plan keeps replicated
// next to sharded ones get a closed replicated sharding; a plan XLA would not
// change gets none.
#include <gtest/gtest.h>

#include "asm/Printer.h"
#include "export/AnnotateModule.h"
#include "export/PinPlan.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using testing::opsNamed;
using testing::parse;

const char *kProgram = R"(
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.tanh %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)";

struct Planned {
  std::unique_ptr<Module> m;
  ShardingVector plan;
  OpId func = kNone;
};

// %x sharded on "d" along the batch; `shardOps` says whether the plan also
// shards the dot and the tanh (else it keeps them replicated).
Planned planned(bool shardOps) {
  Planned p;
  p.m = parse(kProgram);
  Module &m = *p.m;
  p.func = m.findEntryFunction("main");
  p.plan.resize(m.values.size());
  TensorSharding batch = TensorSharding::closed("mesh", 2);
  batch.dims[0].axes = {AxisRef{"d"}};
  p.plan[FuncView{m, p.func}.args()[0]] = batch;
  if (shardOps) {
    p.plan[m.result(opsNamed(m, "stablehlo.dot_general")[0], 0)] = batch;
    p.plan[m.result(opsNamed(m, "stablehlo.tanh")[0], 0)] = batch;
  }
  Mesh mesh;
  mesh.axes = {MeshAxis{"d", 2}};
  auto sharding = [&p](ValueId v) -> const TensorSharding * { return p.plan[v] ? &*p.plan[v] : nullptr; };
  annotatePlan(m, p.func, mesh, AnnotateOptions{}, sharding);
  return p;
}

TEST(PinPlan, PinsReplicatedOpsXlaWouldShard) {
  Planned p = planned(false);
  auto sharding = [&p](ValueId v) -> const TensorSharding * { return p.plan[v] ? &*p.plan[v] : nullptr; };
  Diagnostics diags;
  PinStats stats;
  ASSERT_TRUE(pinAgainstPropagation(*p.m, p.func, "mesh", sharding, diags, &stats));
  EXPECT_EQ(stats.pinned, 2u);  // the dot and the tanh
  std::string out = printModule(*p.m);
  EXPECT_NE(out.find("stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}"),
            std::string::npos)
      << out;
}

TEST(PinPlan, LeavesAPlanXlaWouldKeepAlone) {
  Planned p = planned(true);
  std::string before = printModule(*p.m);
  auto sharding = [&p](ValueId v) -> const TensorSharding * { return p.plan[v] ? &*p.plan[v] : nullptr; };
  Diagnostics diags;
  PinStats stats;
  ASSERT_TRUE(pinAgainstPropagation(*p.m, p.func, "mesh", sharding, diags, &stats));
  EXPECT_EQ(stats.pinned, 0u);
  EXPECT_EQ(stats.rounds, 1);
  EXPECT_EQ(printModule(*p.m), before);
}

}  // namespace
}  // namespace autopart
