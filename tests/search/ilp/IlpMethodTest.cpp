// The ILP baseline as a method of `autopart search`: registered under "ilp",
// priced by the same simulator as the other methods, and never worse than
// leaving the program replicated (the replicated plan is one of its
// strategies, and on these programs its objective and the simulator agree),
// and auto against it.
#include "gen/Models.h"
#include "search/SearchMethod.h"
#include "sim/Hardware.h"
#include "tactics/ApplySchedule.h"

#include "tests/TestUtil.h"
#include "tests/search/SearchFixtures.h"

namespace autopart {
namespace {

void checkIlpBeatsReplicated(const std::string &program) {
  std::unique_ptr<Module> m = testing::parseProgram(program);
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh;
  mesh.axes = {{"data", 4}, {"model", 2}};
  Diagnostics diags;
  std::optional<Hardware> hw = loadHardware("h100-80gb", diags);
  ASSERT_TRUE(hw) << diags.errorText();
  SearchProblem p{*m, m->findEntryFunction(), mesh, "mesh", names, hardwareDeviceParams(*hw, mesh),
                  ShardingVector(m->values.size()), {}};
  const SearchMethodInfo *ilp = findSearchMethod("ilp");
  ASSERT_NE(ilp, nullptr);
  SearchBudget budget;
  budget.seconds = 60;
  SearchOutcome out = runSearchMethod(*ilp, p, budget);
  ASSERT_TRUE(out.found) << out.note;
  EXPECT_TRUE(out.cost.feasible);
  EXPECT_NE(out.note.find("optimal"), std::string::npos) << out.note;
  PlanCost replicated = priceShardings(p, p.base);
  EXPECT_LE(out.cost.stepSeconds, replicated.stepSeconds * (1 + 1e-9));
  ASSERT_FALSE(out.actions.empty());
  EXPECT_NE(out.actions[0].find("tensors sharded"), std::string::npos);
}

TEST(IlpMethod, MlpStepNoWorseThanReplicated) { checkIlpBeatsReplicated(testing::mlpStep()); }

TEST(IlpMethod, TransformerBlockNoWorseThanReplicated) {
  checkIlpBeatsReplicated(testing::transformerBlock());
}

// auto against the ILP on a one-layer T5 training step on 8 TPUs: the
// embedding gradient is accumulated by scatters, and auto beats the ILP only
// when the refinement may move a scatter's result with the optimizer update
// (490.7 us; with scatter results fixed 500.8 us against the ILP's 500.5).
TEST(IlpMethod, AutoNoSlowerOnT5Step) {
  gen::T5Config c;
  c.encoderLayers = c.decoderLayers = 1;
  std::unique_ptr<Module> m = testing::parseProgram(autopart::testing::generatedText(gen::generateT5, c));
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh;
  mesh.axes = {{"data", 8}};
  Diagnostics diags;
  std::optional<Hardware> hw = loadHardware("tpu-v5e", diags);
  ASSERT_TRUE(hw) << diags.errorText();
  SearchProblem p{*m, m->findEntryFunction(), mesh, "mesh", names, hardwareDeviceParams(*hw, mesh),
                  ShardingVector(m->values.size()), {}};
  SearchBudget budget;
  budget.seconds = 120;
  budget.iterations = 400;
  SearchOutcome ilp = runSearchMethod(*findSearchMethod("ilp"), p, budget);
  SearchOutcome mcts = runSearchMethod(*findSearchMethod("mcts"), p, budget);
  ASSERT_TRUE(ilp.found && mcts.found) << ilp.note << mcts.note;
  ASSERT_TRUE(mcts.complete);
  EXPECT_TRUE(mcts.cost.feasible);
  EXPECT_LE(mcts.cost.stepSeconds, ilp.cost.stepSeconds * (1 + 1e-9));
}

}  // namespace
}  // namespace autopart
