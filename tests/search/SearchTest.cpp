// The acceptance checks of the automatic search on small programs: MCTS
// finds the exhaustive optimum, is at least as good as every expert tactic
// on a transformer block, never returns a plan over device memory when one
// fits, gives the same plan for the same seed, and composes with manual
// tactics as `auto`.
#include "search/AutoTactic.h"
#include "search/Baselines.h"
#include "search/Mcts.h"
#include "search/SearchMethod.h"
#include "sim/Hardware.h"

#include "tests/search/SearchFixtures.h"

namespace autopart {
namespace {

using testing::mlpStep;
using testing::parseProgram;
using testing::transformerBlock;

Mesh parseMesh(const std::vector<std::pair<std::string, int64_t>> &axes) {
  Mesh mesh;
  for (const auto &[name, size] : axes) mesh.axes.push_back({name, size});
  return mesh;
}

DeviceParams preset(const Mesh &mesh, const char *name = "h100-80gb") {
  Diagnostics diags;
  std::optional<Hardware> hw = loadHardware(name, diags);
  EXPECT_TRUE(hw) << diags.errorText();
  return hardwareDeviceParams(*hw, mesh);
}

struct Fixture {
  std::unique_ptr<Module> m;
  NamedDimensions names;
  Mesh mesh;
  DeviceParams device;

  Fixture(const std::string &program, Mesh meshIn, const char *device = "h100-80gb")
      : m(parseProgram(program)), names(analyzeNamedDimensions(*m)), mesh(std::move(meshIn)),
        device(preset(mesh, device)) {}

  SearchProblem problem() const {
    return SearchProblem{*m, m->findEntryFunction(), mesh, "mesh", names, device, ShardingVector(m->values.size()), {}};
  }
};

SearchBudget budget(int64_t iterations, uint64_t seed = 1) {
  SearchBudget b;
  b.iterations = iterations;
  b.seed = seed;
  b.seconds = 120;
  return b;
}

SearchOutcome run(const char *method, const SearchProblem &p, const SearchBudget &b) {
  const SearchMethodInfo *info = findSearchMethod(method);
  EXPECT_TRUE(info) << method;
  return runSearchMethod(*info, p, b);
}

bool sameCost(const PlanCost &a, const PlanCost &b) {
  return a.feasible == b.feasible && std::abs(a.stepSeconds - b.stepSeconds) <= 1e-9 * b.stepSeconds;
}

// `a` fits when `b` does and is at most as slow: the refinement may go below
// the optimum of the name-level space, never above it.
bool noWorse(const PlanCost &a, const PlanCost &b) {
  return (a.feasible || !b.feasible) && a.stepSeconds <= b.stepSeconds * (1 + 1e-9);
}

// MCTS and its polish alone, without the per-value refinement.
MctsResult nameLevelMcts(const SearchProblem &p, int64_t iterations, uint64_t seed) {
  ActionSpace space = buildActionSpace(p);
  MctsOptions o;
  o.iterations = iterations;
  o.seed = seed;
  o.seconds = 120;
  o.refine = false;
  return runMcts(space, p.device, o);
}

struct SmallCase {
  std::string program;
  std::vector<std::pair<std::string, int64_t>> mesh;
  const char *device = "h100-80gb";
  int64_t iterations = 1000;
};

class AutoMatchesExhaustive : public ::testing::TestWithParam<SmallCase> {};

TEST_P(AutoMatchesExhaustive, OnSmallSpaces) {
  Fixture fx(GetParam().program, parseMesh(GetParam().mesh), GetParam().device);
  SearchProblem p = fx.problem();
  SearchOutcome exhaustive = run("exhaustive", p, budget(0));
  ASSERT_TRUE(exhaustive.complete) << exhaustive.note;
  // The tree search finds the optimum of the action space; the refinement
  // can only improve on it.
  MctsResult names = nameLevelMcts(p, GetParam().iterations, 1);
  EXPECT_TRUE(sameCost(names.cost, exhaustive.cost))
      << "mcts " << names.cost.stepSeconds << " s, exhaustive " << exhaustive.cost.stepSeconds << " s";
  SearchOutcome mcts = run("mcts", p, budget(GetParam().iterations));
  EXPECT_TRUE(noWorse(mcts.cost, exhaustive.cost))
      << "mcts " << mcts.cost.stepSeconds << " s, exhaustive " << exhaustive.cost.stepSeconds << " s";
  // The optimum shards something: these cases are not trivially replicated.
  EXPECT_FALSE(exhaustive.actions.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Programs, AutoMatchesExhaustive,
    ::testing::Values(SmallCase{mlpStep(4096, 8192, 32768, "bf16"), {{"data", 2}, {"model", 4}}},
                      SmallCase{mlpStep(4096, 8192, 32768, "bf16"), {{"data", 8}, {"model", 4}}},
                      SmallCase{mlpStep(4096, 8192, 32768, "bf16"), {{"data", 8}}},
                      SmallCase{transformerBlock(16, 512, 1024, 16, 64, 4096, "bf16"), {{"data", 8}}},
                      SmallCase{transformerBlock(16, 512, 1024, 16, 64, 4096, "bf16"), {{"data", 2}, {"model", 4}}},
                      // Few iterations on a 64-device TPU mesh: the optimum
                      // (heads and MLP hidden on "model") is a swap away from
                      // the sequence on "model", which the polish makes.
                      SmallCase{transformerBlock(16, 512, 1024, 16, 64, 4096, "bf16"), {{"data", 8}, {"model", 8}},
                                "tpu-v5e", 200},
                      SmallCase{transformerBlock(16, 512, 1024, 16, 64, 4096, "bf16"), {{"data", 64}, {"model", 8}},
                                "tpu-v5e", 200}));

class AutoBeatsExperts : public ::testing::TestWithParam<std::vector<std::pair<std::string, int64_t>>> {};

TEST_P(AutoBeatsExperts, OnTransformerBlock) {
  Fixture fx(transformerBlock(64, 2048, 8192, 64, 128, 32768, "bf16"), parseMesh(GetParam()));
  SearchProblem p = fx.problem();
  SearchOutcome mcts = run("mcts", p, budget(1000));
  ASSERT_TRUE(mcts.cost.feasible);
  for (const char *expert : {"dp", "fsdp", "megatron", "dp+megatron", "fsdp+megatron"}) {
    SearchOutcome e = run(expert, p, budget(0));
    ASSERT_TRUE(e.found) << e.note;
    if (!e.cost.feasible) continue;
    EXPECT_LE(mcts.cost.stepSeconds, e.cost.stepSeconds * (1 + 1e-9)) << expert;
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, AutoBeatsExperts,
                         ::testing::Values(std::vector<std::pair<std::string, int64_t>>{{"data", 8}, {"model", 4}},
                                           std::vector<std::pair<std::string, int64_t>>{{"data", 2}, {"model", 4}},
                                           std::vector<std::pair<std::string, int64_t>>{{"data", 8}}));

TEST(Mcts, SameSeedSamePlan) {
  Fixture fx(transformerBlock(64, 2048, 8192, 64, 128, 32768, "bf16"), parseMesh({{"data", 8}, {"model", 4}}));
  SearchProblem p = fx.problem();
  SearchOutcome a = run("mcts", p, budget(400, 7));
  SearchOutcome b = run("mcts", p, budget(400, 7));
  EXPECT_EQ(a.actions, b.actions);
  EXPECT_EQ(a.cost.stepSeconds, b.cost.stepSeconds);
  EXPECT_EQ(a.cost.peakBytes, b.cost.peakBytes);
  EXPECT_EQ(a.iterations, 400);
  testing::expectSamePlan(a.shardings, b.shardings);
}

TEST(Mcts, NeverOverMemoryWhenAPlanFits) {
  Fixture fx(mlpStep(4096, 8192, 32768, "bf16"), parseMesh({{"data", 2}, {"model", 4}}));
  // The unconstrained optimum; then a device one byte too small for it, so
  // the constraint binds and only slower plans with less memory fit.
  SearchOutcome fastest = run("exhaustive", fx.problem(), budget(0));
  ASSERT_TRUE(fastest.cost.feasible);
  fx.device.hbmCapacity = double(fastest.cost.peakBytes - 1);
  SearchProblem p = fx.problem();
  SearchOutcome exhaustive = run("exhaustive", p, budget(0));
  ASSERT_TRUE(exhaustive.complete);
  ASSERT_TRUE(exhaustive.cost.feasible);
  EXPECT_GT(exhaustive.cost.stepSeconds, fastest.cost.stepSeconds);
  for (uint64_t seed : {1, 2, 3}) {
    SearchOutcome mcts = run("mcts", p, budget(500, seed));
    EXPECT_TRUE(mcts.cost.feasible) << "seed " << seed;
    EXPECT_LE(double(mcts.cost.peakBytes), fx.device.hbmCapacity);
    EXPECT_TRUE(noWorse(mcts.cost, exhaustive.cost));
    EXPECT_TRUE(sameCost(nameLevelMcts(p, 500, seed).cost, exhaustive.cost));
  }
}

TEST(Mcts, NothingFitsGivesTheSmallestPlan) {
  Fixture fx(mlpStep(4096, 8192, 32768, "bf16"), parseMesh({{"data", 2}, {"model", 4}}));
  fx.device.hbmCapacity = 1024 * 1024;  // 1 MiB: nothing fits
  SearchProblem p = fx.problem();
  SearchOutcome exhaustive = run("exhaustive", p, budget(0));
  SearchOutcome mcts = run("mcts", p, budget(500));
  EXPECT_FALSE(mcts.cost.feasible);
  EXPECT_EQ(mcts.cost.peakBytes, exhaustive.cost.peakBytes);
}

TEST(AutoTactic, ComposesWithManualTactics) {
  Fixture fx(mlpStep(4096, 8192, 32768, "bf16"), parseMesh({{"data", 2}, {"model", 4}}));
  Diagnostics diags;
  std::optional<TacticSchedule> s = parseTacticSchedule("dp,auto", fx.mesh, diags);
  ASSERT_TRUE(s) << diags.errorText();
  ShardingVector dpOnly = testing::expertPlan(*fx.m, fx.names, fx.mesh, "dp");
  ShardingVector state(fx.m->values.size());
  ScheduleContext ctx{*fx.m, fx.m->findEntryFunction(), fx.mesh, "mesh", fx.names};
  AutoTacticOptions o;
  o.budget.iterations = 300;
  std::optional<nlohmann::json> report = applySchedule(ctx, *s, state, makeAutoTactic(o), diags);
  ASSERT_TRUE(report) << diags.errorText();
  ASSERT_EQ(report->size(), 2u);
  EXPECT_EQ((*report)[1]["kind"], "auto");
  // auto builds on dp: every axis dp placed is still there.
  for (size_t v = 0; v < dpOnly.size(); ++v) {
    if (!dpOnly[v]) continue;
    for (size_t d = 0; d < dpOnly[v]->dims.size(); ++d)
      for (const AxisRef &a : dpOnly[v]->dims[d].axes) {
        ASSERT_TRUE(state[v]);
        const std::vector<AxisRef> &got = state[v]->dims[d].axes;
        EXPECT_NE(std::find(got.begin(), got.end(), a), got.end());
      }
  }
  // Here the best plan adds "model" to the batch too.
  EXPECT_GT((*report)[1]["dims_sharded"].get<int64_t>(), 0);
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

TEST(Mcts, GreedyRolloutsReachTheOptimum) {
  Fixture fx(transformerBlock(16, 512, 1024, 16, 64, 4096, "bf16"), parseMesh({{"data", 2}, {"model", 4}}));
  SearchProblem p = fx.problem();
  SearchOutcome exhaustive = run("exhaustive", p, budget(0));
  ASSERT_TRUE(exhaustive.complete);
  SearchBudget b = budget(200);
  b.greedyRollouts = true;
  SearchOutcome mcts = run("mcts", p, b);
  EXPECT_TRUE(sameCost(mcts.cost, exhaustive.cost));
  EXPECT_EQ(run("mcts", p, b).actions, mcts.actions);  // deterministic too
}

}  // namespace
}  // namespace autopart
