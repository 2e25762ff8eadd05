#include "search/LeverSearch.h"

#include "sim/Memory.h"
#include "tests/levers/LeverTestUtil.h"
#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

TEST(LeverSearch, BuysMemoryOnlyAsFarAsNeeded) {
  std::string text = testing::smallGptText(4, 16, 256);
  auto m = testing::parse(text);
  ASSERT_TRUE(m);
  OpId f = m->findEntryFunction();
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh;
  mesh.axes = {{"data", 2}};
  DeviceParams device = testing::roundDevice();
  int64_t whole = analyzeMemory(*m, f, ShardingMap::fromModule(*m)).peakBytes;
  ModuleLoader load = [&] { return testing::parse(text); };
  ShardingVector base(m->values.size());

  // A third of the unsharded peak: data parallelism alone halves the
  // activations, recomputation must do the rest.
  device.hbmCapacity = double(whole) / 3;
  SearchProblem problem{*m, f, mesh, "mesh", names, device, base, {}};
  LeverSearchResult r = searchLevers(load, "", problem, 60);
  ASSERT_TRUE(r.chosen);
  EXPECT_TRUE(r.chosen->config.any());
  ASSERT_FALSE(r.trials.empty());
  EXPECT_EQ(formatLevers(r.trials[0].config), "remat:full");  // tried first
  bool chosenFits = false;
  for (const LeverTrial &t : r.trials)
    if (t.config == r.chosen->config) chosenFits = t.applied && t.cost.feasible;
  EXPECT_TRUE(chosenFits);

  // So little memory that only microbatching helps: more microbatches.
  device.hbmCapacity = double(whole) / 12;
  SearchProblem tight{*m, f, mesh, "mesh", names, device, base, {}};
  LeverSearchResult t = searchLevers(load, "", tight, 60);
  if (t.chosen) {
    EXPECT_GT(t.chosen->config.microbatches, 1);
  }
  bool triedMicrobatches = false;
  for (const LeverTrial &trial : t.trials) triedMicrobatches = triedMicrobatches || trial.config.microbatches > 1;
  EXPECT_TRUE(triedMicrobatches);
}

}  // namespace
}  // namespace autopart
