// auto (the `mcts` method with its ILP start) on a real program the search
// was not tuned on: the JAX MNIST CNN training step of ../shared/models
// (value_and_grad + SGD, five convolutions) on data=2,model=4 A100s.
//
//   autopart search jax_mnist_cnn_train_step.mlir --mesh data=2,model=4
//       --device a100-80gb --method mcts,ilp --iterations 200
//     mcts 1.757 ms   (ILP 1.911 ms)
//
// With an iteration budget and an annealing count (and the ILP proved
// optimal well within its time), two runs with the same seed give the same
// plan, and that plan is no slower than the ILP's.
#include "asm/Parser.h"
#include "search/SearchMethod.h"
#include "sim/Hardware.h"

#include "tests/TestUtil.h"
#include "tests/search/SearchFixtures.h"

namespace autopart {
namespace {

TEST(RealProgramSearch, SameSeedSamePlanAndNoSlowerThanTheIlp) {
  std::string path = std::string(AUTOPART_SHARED_DIR) + "/models/jax_mnist_cnn_train_step.mlir";
  std::string text;
  Diagnostics io;
  if (!readFile(path, text, io)) GTEST_SKIP() << "no " << path;
  std::unique_ptr<Module> m = testing::parse(text, path);
  ASSERT_TRUE(m);
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh;
  mesh.axes = {{"data", 2}, {"model", 4}};
  Diagnostics diags;
  std::optional<Hardware> hw = loadHardware("a100-80gb", diags);
  ASSERT_TRUE(hw) << diags.errorText();
  SearchProblem p{*m, m->findEntryFunction(), mesh, "mesh", names, hardwareDeviceParams(*hw, mesh),
                  ShardingVector(m->values.size()), {}};
  SearchBudget budget;
  budget.seconds = 600;  // never reached: the counts below end the search
  budget.iterations = 200;
  budget.annealSteps = 5000;
  budget.seed = 3;
  const SearchMethodInfo *mcts = findSearchMethod("mcts");
  ASSERT_NE(mcts, nullptr);
  SearchOutcome first = runSearchMethod(*mcts, p, budget);
  SearchOutcome second = runSearchMethod(*mcts, p, budget);
  ASSERT_TRUE(first.found && second.found) << first.note << second.note;
  EXPECT_TRUE(first.complete) << first.note;
  EXPECT_TRUE(first.cost.feasible);
  EXPECT_EQ(first.shardings, second.shardings);
  EXPECT_EQ(first.actions, second.actions);
  EXPECT_EQ(first.cost.stepSeconds, second.cost.stepSeconds);
  const SearchMethodInfo *ilp = findSearchMethod("ilp");
  if (!ilp) return;  // a build without CBC has no ILP to compare with
  SearchOutcome i = runSearchMethod(*ilp, p, budget);
  ASSERT_TRUE(i.found) << i.note;
  EXPECT_LE(first.cost.stepSeconds, i.cost.stepSeconds * (1 + 1e-9));
}

}  // namespace
}  // namespace autopart
