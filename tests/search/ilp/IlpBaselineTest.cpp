// The ILP baseline on programs small enough to solve by hand: the strategy a
// hand calculation says is fastest, memory forcing a sharding the step time
// alone would not choose, a memory budget nothing fits (an error, not a
// crash), and the ILP objective against the simulator's time for its plan.
#include "search/ilp/IlpBaseline.h"
#include "sim/Simulator.h"

#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::parse;
using testing::roundDevice;

Mesh mesh(std::vector<std::pair<std::string, int64_t>> axes) {
  Mesh m;
  for (auto &[name, size] : axes) m.axes.push_back({name, size});
  return m;
}

const TensorSharding &shardingOf(const IlpPlan &plan, ValueId v) {
  EXPECT_TRUE(plan.shardings[v].has_value());
  return *plan.shardings[v];
}

std::string axesOf(const TensorSharding &s) {
  std::string out;
  for (const DimSharding &d : s.dims) out += d.str();
  return out;
}

// y = x . w, x 256x1024, w 1024x1024, f32.
const char *kMatmul = R"(func.func @main(%x: tensor<256x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<256x1024xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
)";

// On a memory-bound device (1 PFLOP/s, 1 TB/s) the op time is its local
// bytes. On ["a"=2, "b"=2] the factors are i (rows, 256), j (contracted,
// 1024), k (columns, 1024):
//   replicated        x 1 MiB + w 4 MiB    + y 1 MiB    = 6    MiB
//   i <- a, b         x 1/4   + w 4        + y 1/4      = 4.5  MiB
//   i <- a, k <- b    x 1/2   + w 2        + y 1/4      = 2.75 MiB
//   k <- a, b         x 1     + w 1        + y 1/4      = 2.25 MiB   best
//   j <- a, b         x 1/4   + w 1        + y 1        = 2.25 MiB + all-reduce of y
// so the ILP splits w's columns over both axes and leaves x replicated:
// 2.25 MiB / 1 TB/s = 2.36 us.
TEST(IlpBaseline, MatmulPicksTheHandCalculatedStrategy) {
  auto m = parse(kMatmul);
  ASSERT_TRUE(m);
  DeviceParams device = roundDevice();
  device.peakFlopsDefault = 1e15;
  Mesh ab = mesh({{"a", 2}, {"b", 2}});
  OpId func = m->functions().front();
  std::string error;
  std::optional<IlpPlan> plan = solveIlpPlan(*m, func, ab, "mesh", device, {}, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_TRUE(plan->provedOptimal);
  FuncView f{*m, func};
  ValueId x = f.args()[0], w = f.args()[1];
  ValueId y = m->operand(f.returnOp(), 0);
  EXPECT_EQ(axesOf(shardingOf(*plan, x)), "{}{}");
  EXPECT_EQ(axesOf(shardingOf(*plan, w)), "{}{\"a\", \"b\"}");
  EXPECT_EQ(axesOf(shardingOf(*plan, y)), "{}{\"a\", \"b\"}");
  const double expected = 2.25 * 1048576 / 1e12;
  EXPECT_NEAR(plan->objectiveSeconds, expected, 1e-12);
  // The simulator charges the same for the plan.
  IlpPlanSimulation sim = simulateIlpPlan(*m, func, *plan, ab, "mesh", device);
  EXPECT_NEAR(sim.step.stepSeconds, expected, 1e-12);
  EXPECT_EQ(sim.step.commSeconds, 0);
}

// x arrives batch-split over a=2 (fixed by its annotation). Fastest is to
// keep w replicated (i <- a, no communication); w (4 MiB) then does not fit
// a 4 MiB device next to x and y, so the memory constraint makes the ILP
// split w (and pay for moving x) instead.
const char *kFixedBatch = R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %w: tensor<1024x1024xf32>) -> tensor<256x1024xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
)";

TEST(IlpBaseline, MemoryConstraintForcesSharding) {
  auto m = parse(kFixedBatch);
  ASSERT_TRUE(m);
  Mesh a = mesh({{"a", 2}});
  OpId func = m->functions().front();
  FuncView f{*m, func};
  ValueId x = f.args()[0], w = f.args()[1];
  std::string error;

  DeviceParams roomy = roundDevice();
  std::optional<IlpPlan> fast = solveIlpPlan(*m, func, a, "mesh", roomy, {}, &error);
  ASSERT_TRUE(fast) << error;
  EXPECT_EQ(axesOf(shardingOf(*fast, x)), "{\"a\"}{}");
  EXPECT_EQ(axesOf(shardingOf(*fast, w)), "{}{}");
  EXPECT_EQ(fast->memoryRows, 0);

  DeviceParams tight = roundDevice();
  tight.hbmCapacity = 4 * 1048576.0;
  std::optional<IlpPlan> small = solveIlpPlan(*m, func, a, "mesh", tight, {}, &error);
  ASSERT_TRUE(small) << error;
  EXPECT_EQ(axesOf(shardingOf(*small, x)), "{\"a\"}{}");  // fixed by the input
  EXPECT_NE(axesOf(shardingOf(*small, w)), "{}{}");
  EXPECT_GE(small->memoryRows, 1);
  EXPECT_TRUE(small->memoryFits);
  EXPECT_GT(small->objectiveSeconds, fast->objectiveSeconds);
  ShardingMap map;
  map.addMesh("mesh", a);
  for (ValueId v = 0; v < small->shardings.size(); ++v)
    if (small->shardings[v]) map.set(v, *small->shardings[v]);
  EXPECT_LE(double(analyzeMemory(*m, func, map).peakBytes), tight.hbmCapacity);
}

TEST(IlpBaseline, InfeasibleMemoryIsAnError) {
  auto m = parse(kFixedBatch);
  ASSERT_TRUE(m);
  DeviceParams tiny = roundDevice();
  tiny.hbmCapacity = 1048576.0;  // x's half alone is 0.5 MiB, w's at least 2 MiB
  std::string error;
  std::optional<IlpPlan> plan = solveIlpPlan(*m, m->functions().front(), mesh({{"a", 2}}), "mesh", tiny, {}, &error);
  EXPECT_FALSE(plan);
  EXPECT_NE(error.find("no plan fits in 1048576 bytes"), std::string::npos) << error;
}

// A two-layer MLP with bias and relu: the elementwise ops follow their
// producers, and the ILP's objective is the simulator's time for the plan.
const char *kMlp = R"(func.func @main(%x: tensor<512x1024xf32>, %w1: tensor<1024x4096xf32>, %b1: tensor<4096xf32>, %w2: tensor<4096x1024xf32>) -> tensor<512x1024xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<512x4096xf32>
  %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<512x1024xf32>, tensor<1024x4096xf32>) -> tensor<512x4096xf32>
  %1 = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<4096xf32>) -> tensor<512x4096xf32>
  %2 = stablehlo.add %0, %1 : tensor<512x4096xf32>
  %3 = stablehlo.maximum %2, %cst : tensor<512x4096xf32>
  %4 = stablehlo.dot_general %3, %w2, contracting_dims = [1] x [0] : (tensor<512x4096xf32>, tensor<4096x1024xf32>) -> tensor<512x1024xf32>
  return %4 : tensor<512x1024xf32>
}
)";

TEST(IlpBaseline, MlpObjectiveMatchesTheSimulator) {
  auto m = parse(kMlp);
  ASSERT_TRUE(m);
  Mesh dm = mesh({{"data", 2}, {"model", 2}});
  OpId func = m->functions().front();
  std::string error;
  IlpOptions opts;
  std::optional<IlpPlan> plan = solveIlpPlan(*m, func, dm, "mesh", roundDevice(), opts, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_TRUE(plan->provedOptimal);
  // dot, broadcast, dot are decisions; add and maximum follow.
  EXPECT_EQ(plan->numOps, 5);
  opts.mergeElementwise = false;
  std::optional<IlpPlan> unmerged = solveIlpPlan(*m, func, dm, "mesh", roundDevice(), opts, &error);
  ASSERT_TRUE(unmerged) << error;
  EXPECT_GT(unmerged->numBinaries, plan->numBinaries);
  // Following never beats the full problem.
  EXPECT_LE(unmerged->objectiveSeconds, plan->objectiveSeconds * (1 + 1e-9));
  // Both matmuls split 4 ways with no collective would be 2·512·1024·4096/4
  // FLOPs each at 1 TFLOP/s: the plan cannot beat that.
  EXPECT_GE(plan->objectiveSeconds, 2 * 2.0 * 512 * 1024 * 4096 / 4 / 1e12 * (1 - 1e-9));
  // The ILP's objective is the simulator's model without fusion and without
  // the two-stream schedule (both are not linear in the decisions).
  ShardingMap map = ShardingMap::fromModule(*m);
  map.addMesh("mesh", dm);
  for (ValueId v = 0; v < plan->shardings.size(); ++v)
    if (plan->shardings[v]) map.set(v, *plan->shardings[v]);
  SimOptions so;
  so.fuse = false;
  so.schedule = false;
  so.undeclaredResultsFollowOperands = opts.freeResultShardings;
  Simulator additive(*m, std::move(map), roundDevice(), so);
  EXPECT_NEAR(additive.evaluate().stepSeconds, plan->objectiveSeconds, 1e-3 * plan->objectiveSeconds);
  // The full model fuses and overlaps, so the plan runs no slower there.
  IlpPlanSimulation sim = simulateIlpPlan(*m, func, *plan, dm, "mesh", roundDevice());
  EXPECT_LE(sim.step.stepSeconds, plan->objectiveSeconds * (1 + 1e-9));
}

}  // namespace
}  // namespace autopart
