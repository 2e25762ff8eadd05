// Program-level simulation: an MLP training step under FSDP (weights
// all-gathered before use, gradients reduce-scattered), trip counts, and the
// incremental evaluation agreeing with a full one.
#include "sim/Simulator.h"

#include "sim/TripCount.h"
#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::kFsdpStep;
using testing::parse;
using testing::roundDevice;

TEST(Simulator, FsdpGathersWeightsAndScattersGradients) {
  auto m = parse(kFsdpStep);
  Simulator sim(*m, ShardingMap::fromModule(*m), roundDevice());
  StepSummary s = sim.evaluate();
  ASSERT_EQ(sim.sites().size(), 3u);
  const double w1Bytes = 128 * 256 * 4;  // 128 KiB
  const double ring = 7.0 / 8 * w1Bytes / 100e9;

  const OpCost &fwd = sim.siteCost(0);
  ASSERT_EQ(fwd.collectives.size(), 1u);
  EXPECT_EQ(fwd.collectives[0].kind, CollectiveKind::AllGather);
  EXPECT_EQ(fwd.collectives[0].value, m->functions().empty() ? kNone : m->operand(sim.sites()[0].op, 1));
  EXPECT_EQ(fwd.collectives[0].bytes, int64_t(w1Bytes));
  EXPECT_DOUBLE_EQ(fwd.commSeconds, ring);
  EXPECT_DOUBLE_EQ(fwd.flops, 2.0 * 1024 * 128 * 256 / 8);

  const OpCost &bwd = sim.siteCost(1);
  ASSERT_EQ(bwd.collectives.size(), 1u);
  EXPECT_EQ(bwd.collectives[0].kind, CollectiveKind::ReduceScatter);
  EXPECT_EQ(bwd.collectives[0].bytes, int64_t(w1Bytes));
  EXPECT_DOUBLE_EQ(bwd.commSeconds, ring);

  EXPECT_TRUE(sim.siteCost(2).collectives.empty());  // results already as declared
  EXPECT_DOUBLE_EQ(s.commSeconds, 2 * ring);
  EXPECT_DOUBLE_EQ(s.globalFlops, 2 * 2.0 * 1024 * 128 * 256);
  EXPECT_DOUBLE_EQ(s.localFlops, s.globalFlops / 8);
  EXPECT_DOUBLE_EQ(s.stepSeconds, s.computeSeconds + s.commSeconds);
}

TEST(Simulator, OverlapFractionHidesTheSmallerPartWithoutTheSchedule) {
  auto m = parse(kFsdpStep);
  SimOptions o;
  o.schedule = false;
  o.overlap = 1;
  Simulator sim(*m, ShardingMap::fromModule(*m), roundDevice(), o);
  StepSummary s = sim.evaluate();
  EXPECT_DOUBLE_EQ(s.stepSeconds, std::max(s.computeSeconds, s.commSeconds));
}

TEST(Simulator, IncrementalMatchesFullEvaluation) {
  auto m = parse(kFsdpStep);
  Simulator sim(*m, ShardingMap::fromModule(*m), roundDevice());
  double base = sim.evaluate().stepSeconds;
  size_t before = sim.evaluatedSites();
  // Moving dh's sharding to {"d", "d"} is invalid, so assign "d" to dim 1
  // of dh on top of dim 0: only its user, the gradient dot, is re-evaluated.
  ValueId dh = FuncView{*m, m->functions()[0]}.args()[2];
  DimRef dims[] = {{dh, 1}};
  double delta = sim.deltaAssign(dims, AxisRef{"d"});
  EXPECT_LE(sim.evaluatedSites() - before, 2u);  // only dw1 (the user) re-evaluated
  EXPECT_DOUBLE_EQ(sim.evaluate().stepSeconds, base);  // state restored

  ShardingMap changed = ShardingMap::fromModule(*m);
  TensorSharding s = *changed.get(dh);
  s.dims[1].axes.push_back(AxisRef{"d"});
  changed.set(dh, s);
  Simulator full(*m, changed, roundDevice());
  EXPECT_NEAR(full.evaluate().stepSeconds - base, delta, 1e-15);
}

// FSDP with prefetch: the all-gather of w1 (an argument, so ready at the
// start of the step) runs on the communication stream while the compute
// stream does the independent a = x . w0; h = a . w1 waits only for what is
// left of it. Everything is row-sharded over d=8, w0 replicated.
constexpr const char *kPrefetch = R"(sdy.mesh @mesh = <["d"=8]>
func.func @main(%x: tensor<1024x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %w0: tensor<128x128xf32>,
                %w1: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>})
    -> (tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) {
  %a = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : (tensor<1024x128xf32>, tensor<128x128xf32>) -> tensor<1024x128xf32>
  %h = stablehlo.dot_general %a, %w1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : (tensor<1024x128xf32>, tensor<128x256xf32>) -> tensor<1024x256xf32>
  return %h : tensor<1024x256xf32>
}
)";

TEST(Simulator, AllGatherOfAWeightHidesUnderAnIndependentDot) {
  auto m = parse(kPrefetch);
  ASSERT_TRUE(m);
  // Local rows 1024/8 = 128. Kernel 0: 2·128·128·128 = 4194304 FLOPs at
  // 1 TFLOP/s = 4.194304 us (bytes 3·65536 take 0.2 us). Kernel 1:
  // 2·128·256·128 = 8388608 FLOPs = 8.388608 us (bytes 65536 + 131072 +
  // 131072 take 0.33 us). All-gather of w1 (128·256·4 = 131072 bytes):
  // 7/8 · 131072 / 100e9 = 1.14688 us, ready at 0, needed by kernel 1.
  const double k0 = 4194304e-12, k1 = 8388608e-12;
  {
    Simulator sim(*m, ShardingMap::fromModule(*m), roundDevice());
    StepSummary s = sim.evaluate();
    ASSERT_EQ(sim.kernels().kernels.size(), 2u);
    EXPECT_DOUBLE_EQ(sim.kernelSeconds(0), k0);
    EXPECT_DOUBLE_EQ(sim.kernelSeconds(1), k1);
    const double ag = 7.0 / 8 * 131072 / 100e9;
    ASSERT_EQ(sim.siteCost(1).collectives.size(), 1u);
    EXPECT_EQ(sim.siteCost(1).collectives[0].kind, CollectiveKind::AllGather);
    EXPECT_DOUBLE_EQ(s.commSeconds, ag);
    // comm [ag 0..1.15]; compute [k0 0..4.19][k1 4.19..12.58]: all hidden.
    EXPECT_DOUBLE_EQ(s.exposedCommSeconds, 0);
    EXPECT_DOUBLE_EQ(s.stepSeconds, k0 + k1);  // 12.582912 us
    EXPECT_DOUBLE_EQ(sim.schedule().hiddenByKind[size_t(CollectiveKind::AllGather)], ag);
  }
  {
    // Links 10x slower: the all-gather takes 11.4688 us, k1 waits from
    // 4.194304 to 11.4688 us: 7.274496 us exposed, 4.194304 us hidden.
    DeviceParams slow = roundDevice();
    slow.defaultLink = {10e9, 0};
    Simulator sim(*m, ShardingMap::fromModule(*m), slow);
    StepSummary s = sim.evaluate();
    const double ag = 7.0 / 8 * 131072 / 10e9;
    EXPECT_DOUBLE_EQ(s.commSeconds, ag);
    EXPECT_DOUBLE_EQ(s.exposedCommSeconds, ag - k0);  // 7.274496 us
    EXPECT_DOUBLE_EQ(sim.schedule().hiddenByKind[size_t(CollectiveKind::AllGather)], k0);
    EXPECT_DOUBLE_EQ(s.stepSeconds, ag + k1);  // 19.857408 us
    // Without the schedule (no overlap) the whole all-gather is exposed.
    SimOptions serial;
    serial.schedule = false;
    Simulator unscheduled(*m, ShardingMap::fromModule(*m), slow, serial);
    EXPECT_DOUBLE_EQ(unscheduled.evaluate().stepSeconds, k0 + k1 + ag);  // 24.051712 us
  }
}

TEST(TripCount, ForiLoopCounter) {
  auto m = parse(R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c10 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %e = stablehlo.exponential %a : tensor<4xf32>
    stablehlo.return %n, %e : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
})");
  OpId loop = kNone;
  m->walk(m->functions()[0], [&](OpId op) {
    if (m->isa(op, "stablehlo.while")) loop = op;
  });
  EXPECT_EQ(staticTripCount(*m, loop), 10);
  Simulator sim(*m, ShardingMap::fromModule(*m), roundDevice());
  StepSummary s = sim.evaluate();
  EXPECT_EQ(s.unknownTripCounts, 0);
  // Body: exp of 4 elements and the counter add, ten times; cond: the
  // compare, eleven times.
  EXPECT_DOUBLE_EQ(s.globalFlops, 10 * 4 + 10 * 1 + 11 * 1);
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

// Four identical layers h_{k+1} = h_k . w_k: the memo shares their costs, but
// a layer whose shardings differ must be costed on its own, and the values
// its collectives move must be its own.
const char *kRepeatedLayers = R"(sdy.mesh @mesh = <["d"=8]>
func.func @main(%x: tensor<256x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %w0: tensor<128x128xf32>, %w1: tensor<128x128xf32>,
                %w2: tensor<128x128xf32>, %w3: tensor<128x128xf32>) -> tensor<256x128xf32> {
  %0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<256x128xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
  %1 = stablehlo.dot_general %0, %w1, contracting_dims = [1] x [0] : (tensor<256x128xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
  %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<256x128xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
  %3 = stablehlo.dot_general %2, %w3, contracting_dims = [1] x [0] : (tensor<256x128xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
  return %3 : tensor<256x128xf32>
}
)";

void expectSameCosts(const Simulator &a, const Simulator &b) {
  ASSERT_EQ(a.sites().size(), b.sites().size());
  for (size_t i = 0; i < a.sites().size(); ++i) {
    const OpCost &x = a.siteCost(i), &y = b.siteCost(i);
    EXPECT_DOUBLE_EQ(x.computeSeconds, y.computeSeconds) << "site " << i;
    EXPECT_DOUBLE_EQ(x.commSeconds, y.commSeconds) << "site " << i;
    ASSERT_EQ(x.collectives.size(), y.collectives.size()) << "site " << i;
    for (size_t k = 0; k < x.collectives.size(); ++k) {
      EXPECT_EQ(x.collectives[k].kind, y.collectives[k].kind);
      EXPECT_EQ(x.collectives[k].value, y.collectives[k].value) << "site " << i;
    }
  }
}

TEST(Simulator, MemoizedLayersMatchAFreshEvaluation) {
  auto m = parse(kRepeatedLayers);
  ShardingMap map = ShardingMap::fromModule(*m);
  FuncView f{*m, m->functions().front()};
  auto rowSharded = [] {
    TensorSharding s = TensorSharding::closed("mesh", 2);
    s.dims[0].axes.push_back(AxisRef{"d"});
    return s;
  };
  // Every layer's input and output data parallel: four equal sites.
  for (uint32_t k = 0; k < 4; ++k) map.set(m->result(m->blocks[f.entry()].ops[k]), rowSharded());
  Simulator sim(*m, map, roundDevice());
  sim.evaluate();
  EXPECT_EQ(sim.memoHits(), 3u);  // layers 1-3 reuse layer 0's cost

  // Layer 2's weight is FSDP-sharded: its site needs an all-gather of w2,
  // which the memo must not hand to the other layers.
  ValueId w2 = f.args()[3];
  sim.setSharding(w2, rowSharded());
  StepSummary incremental = sim.evaluate();
  map.set(w2, rowSharded());
  Simulator fresh(*m, map, roundDevice());
  StepSummary full = fresh.evaluate();
  EXPECT_DOUBLE_EQ(incremental.stepSeconds, full.stepSeconds);
  expectSameCosts(sim, fresh);
  ASSERT_EQ(sim.siteCost(2).collectives.size(), 1u);
  EXPECT_EQ(sim.siteCost(2).collectives[0].value, w2);
  EXPECT_TRUE(sim.siteCost(1).collectives.empty());

  // The same sharding on w0 makes layer 0 equal to layer 2: a memo hit, with
  // the collective renamed to w0.
  ValueId w0 = f.args()[1];
  sim.setSharding(w0, rowSharded());
  sim.evaluate();
  ASSERT_EQ(sim.siteCost(0).collectives.size(), 1u);
  EXPECT_EQ(sim.siteCost(0).collectives[0].value, w0);
  map.set(w0, rowSharded());
  Simulator fresh2(*m, map, roundDevice());
  fresh2.evaluate();
  expectSameCosts(sim, fresh2);
}

// A step that returns its updated weight sharded while taking it replicated
// is not a steady state: the next call all-gathers it, and the simulator
// charges that at the return. Sharding the argument the same way removes
// the charge (incrementally: the return site reads the carried argument).
TEST(Simulator, CarriedStateReturnedShardedIsGatheredForTheNextStep) {
  auto m = parse(R"(sdy.mesh @mesh = <["d"=4]>
func.func @main(%w: tensor<1024x256xf32>) -> tensor<1024x256xf32> {
  %c = stablehlo.constant dense<5.000000e-01> : tensor<1024x256xf32>
  %0 = stablehlo.multiply %w, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : tensor<1024x256xf32>
  return %0 : tensor<1024x256xf32>
})");
  ASSERT_TRUE(m);
  SimOptions follow;
  follow.resultsFollowOperands = true;
  Simulator sim(*m, ShardingMap::fromModule(*m), roundDevice(), follow);
  FuncView f{*m, m->functions().front()};
  ASSERT_EQ(sim.carriedArguments().size(), 1u);
  EXPECT_EQ(sim.carriedArguments()[0], f.args()[0]);
  StepSummary s = sim.evaluate();
  const double bytes = 1024 * 256 * 4;
  size_t ret = sim.sites().size() - 1;
  ASSERT_EQ(sim.siteCost(ret).collectives.size(), 1u);
  EXPECT_EQ(sim.siteCost(ret).collectives[0].kind, CollectiveKind::AllGather);
  EXPECT_EQ(sim.siteCost(ret).collectives[0].bytes, int64_t(bytes));
  EXPECT_DOUBLE_EQ(s.commSeconds, 3.0 / 4 * bytes / 100e9);

  TensorSharding rows = TensorSharding::closed("mesh", 2);
  rows.dims[0].axes.push_back(AxisRef{"d"});
  sim.setSharding(f.args()[0], rows);
  EXPECT_DOUBLE_EQ(sim.evaluate().commSeconds, 0);

  follow.chargeCarriedState = false;
  Simulator uncharged(*m, ShardingMap::fromModule(*m), roundDevice(), follow);
  EXPECT_DOUBLE_EQ(uncharged.evaluate().commSeconds, 0);
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

// A loop of 4 microbatches: x^T . x of a batch sharded over d is a partial
// sum on every device. Accumulated into a carried sum (`acc + g`), XLA's
// while-loop all-reduce code motion reduces it once after the loop; kept
// any other way (`acc * g`) it is all-reduced in every iteration.
std::string microbatchLoop(const char *combine) {
  return std::string(R"(sdy.mesh @mesh = <["d"=4]>
func.func @main(%x: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) -> tensor<256x256xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<256x256xf32>
  %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<256x256xf32>
  cond {
    %c4 = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %g = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
    %acc1 = stablehlo.)") + combine + R"( %acc, %g : tensor<256x256xf32>
    stablehlo.return %i1, %acc1 : tensor<i32>, tensor<256x256xf32>
  }
  return %r#1 : tensor<256x256xf32>
}
)";
}

TEST(Simulator, AnAccumulatedAllReduceIsPaidOnceAfterTheLoop) {
  auto sunk = testing::parse(microbatchLoop("add"));
  auto every = testing::parse(microbatchLoop("multiply"));
  ASSERT_TRUE(sunk && every);
  Simulator a(*sunk, ShardingMap::fromModule(*sunk), testing::roundDevice());
  Simulator b(*every, ShardingMap::fromModule(*every), testing::roundDevice());
  double once = a.evaluate().commSeconds, each = b.evaluate().commSeconds;
  ASSERT_GT(each, 0);
  EXPECT_NEAR(once * 4, each, each * 1e-9);
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

// Inside a manual computation over x=2, y=4 every device multiplies its own
// 8x16 by 16x32 slice: 2·8·16·32 = 8192 FLOPs each, 8 times that for the
// program.
TEST(Simulator, ManualBodiesCountEveryDevicesWorkInTheProgramsFlops) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>] manual_axes={"x", "y"} (%la: tensor<8x16xf32>, %lb: tensor<16x32xf32>) {
    %d = stablehlo.dot_general %la, %lb, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    sdy.return %d : tensor<8x32xf32>
  } : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
)");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), testing::roundDevice());
  StepSummary s = sim.evaluate();
  EXPECT_DOUBLE_EQ(s.localFlops, 2.0 * 8 * 16 * 32);
  EXPECT_DOUBLE_EQ(s.globalFlops, 8 * 2.0 * 8 * 16 * 32);
}

}  // namespace
}  // namespace autopart
