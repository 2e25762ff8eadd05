#include "api/Plan.h"

#include <gtest/gtest.h>

#include "api/Search.h"
#include "api/Simulate.h"
#include "asm/Parser.h"

namespace autopart {
namespace {

ProgramText mlp() {
  ProgramText p;
  p.fileName = std::string(AUTOPART_SOURCE_DIR) + "/examples/mlp_forward.mlir";
  Diagnostics diags;
  EXPECT_TRUE(readFile(p.fileName, p.text, diags)) << diags.errorText();
  return p;
}

TEST(ApiPlan, TextSpecsAndSimulation) {
  PlanRequest r;
  r.program = mlp();
  r.mesh = "data=8,model=4";
  r.tactics = "dp,megatron";
  r.simulate = true;
  Diagnostics diags;
  PlanResult p = planProgram(r, diags);
  ASSERT_TRUE(p.ok) << diags.errorText();
  EXPECT_NE(p.text.find("sdy.mesh @mesh = <[\"data\"=8, \"model\"=4]>"), std::string::npos);
  EXPECT_EQ(p.specs["in_specs"][0]["name"], "params['w1']");
  EXPECT_EQ(p.specs["in_specs"][0]["spec"], nlohmann::json::parse(R"([null, "model"])"));
  EXPECT_EQ(p.specs["in_specs"][3]["spec"], nlohmann::json::parse(R"(["data", null])"));
  EXPECT_EQ(p.tactics.size(), 2u);
  // The simulation is that of the annotated text.
  SimulateRequest s;
  s.program = {p.text, "planned.mlir"};
  std::optional<SimulateResult> sim = simulateProgram(s, diags);
  ASSERT_TRUE(sim) << diags.errorText();
  EXPECT_EQ(p.simulation["step_seconds"], sim->report["step_seconds"]);
}

TEST(ApiPlan, ErrorsNameTheirOption) {
  PlanRequest r;
  r.program = mlp();
  r.mesh = "data=8";
  r.tactics = "nosuchtactic";
  Diagnostics diags;
  PlanResult p = planProgram(r, diags);
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(diags.errorText().rfind("error: --tactics: ", 0), 0u) << diags.errorText();
}

TEST(ApiSearch, ProgressCallbackAndAnnotatedPlan) {
  SearchRequest r;
  r.program = mlp();
  r.mesh = "data=8,model=4";
  r.budget.iterations = 200;
  r.budget.seconds = 60;
  r.annotate = true;
  int calls = 0;
  int64_t lastIterations = -1;
  r.budget.onProgress = [&](const SearchProgress &p) {
    ++calls;
    EXPECT_GE(p.iterations, lastIterations);
    lastIterations = p.iterations;
  };
  Diagnostics diags;
  SearchResult s = searchProgram(r, diags);
  ASSERT_TRUE(s.ok) << diags.errorText();
  EXPECT_GE(calls, 2);  // as the tree search starts and when it ends
  EXPECT_EQ(lastIterations, 200);
  EXPECT_EQ(s.report["chosen"], "mcts");
  EXPECT_EQ(s.specs["in_specs"].size(), 5u);
  EXPECT_NE(s.text.find("sdy.sharding"), std::string::npos);
  EXPECT_FALSE(searchMethodsValid("nosuchmethod", diags));
}

}  // namespace
}  // namespace autopart
