// zero1 (ZeRO stage 1) on a real training step, the `autopart gen mlp`
// program (Adam, so every parameter has optimizer state mu and nu): the
// optimizer state and the step's update of it are split over "data", the
// parameters, the new parameters and the gradients stay replicated, and
// the new parameters' step is computed on the slices.
#include <gtest/gtest.h>

#include "analysis/ArgumentRoles.h"
#include "analysis/NamedDimensions.h"
#include "gen/Models.h"
#include "tactics/ApplySchedule.h"
#include "tactics/TacticRegistry.h"
#include "tests/TestUtil.h"

namespace autopart {
namespace {

struct Planned {
  std::unique_ptr<Module> m;
  OpId func = kNone;
  ShardingVector state;
  nlohmann::json report;
};

// One hidden layer: w0 32x64, b0 64, w1 64x8, b1 8; batch 64.
Planned plan(const std::string &text, const std::string &tactics, const Mesh &mesh) {
  Planned p;
  p.m = testing::parse(text);
  if (!p.m) return p;
  p.func = p.m->findEntryFunction();
  NamedDimensions names = analyzeNamedDimensions(*p.m);
  Diagnostics diags;
  std::optional<TacticSchedule> s = parseTacticSchedule(tactics, mesh, diags);
  EXPECT_TRUE(s) << diags.errorText();
  if (!s) return p;
  p.state.resize(p.m->values.size());
  ScheduleContext ctx{*p.m, p.func, mesh, "mesh", names};
  std::optional<nlohmann::json> r = applySchedule(ctx, *s, p.state, AutoTacticFn{}, diags);
  EXPECT_TRUE(r) << diags.errorText();
  if (r) p.report = *r;
  return p;
}

std::string mlpStep() {
  gen::MlpConfig c;
  c.batch = 64;
  c.input = 32;
  c.width = 64;
  c.layers = 1;
  c.classes = 8;
  return autopart::testing::generatedText(gen::generateMlp, c);
}

bool replicated(const std::optional<TensorSharding> &s) { return !s || s->isFullyReplicated(); }

// The one axis on the one sharded dimension, as "dim:axis", or "" when replicated.
std::string shardedAs(const std::optional<TensorSharding> &s) {
  if (replicated(s)) return "";
  std::string out;
  for (size_t d = 0; d < s->dims.size(); ++d)
    for (const AxisRef &a : s->dims[d].axes) out += (out.empty() ? "" : " ") + std::to_string(d) + ":" + a.name;
  return out;
}

TEST(Zero1Tactic, IsRegisteredWithItsAliasesAndTheDataAxis) {
  const TacticInfo *z = findTactic("zero-1");
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->name, "zero1");
  EXPECT_EQ(z->reach, SeedReach::StateUpdate);
  Diagnostics diags;
  auto s = parseTacticSchedule("zero1", Mesh{{{"model", 4}, {"data", 2}}, {}}, diags);
  ASSERT_TRUE(s) << diags.errorText();
  EXPECT_EQ(s->tactics[0].axes, std::vector<std::string>{"data"});
}

TEST(Zero1Tactic, SplitsOptimizerStateAndItsUpdateOnly) {
  Planned p = plan(mlpStep(), "dp,zero1", Mesh{{{"data", 2}}, {}});
  ASSERT_TRUE(p.m);
  const Module &m = *p.m;
  FuncView f{m, p.func};
  std::vector<ArgumentInfo> infos = classifyArguments(m, p.func);
  ASSERT_EQ(infos.size(), 14u);  // 4 params, 4 mu, 4 nu, x, label
  size_t states = 0;
  for (size_t i = 0; i < infos.size(); ++i) {
    const std::optional<TensorSharding> &s = p.state[f.args()[i]];
    if (infos[i].role == ArgRole::OptimizerState) {
      ++states;
      // The largest dimension 2 divides: w0's mu/nu (32x64) on dim 1, the
      // rest on dim 0.
      bool w0 = infos[i].name.find("[0]['w']") != std::string::npos;
      EXPECT_EQ(shardedAs(s), w0 ? "1:data" : "0:data") << infos[i].name;
    } else if (infos[i].role == ArgRole::Parameter) {
      EXPECT_TRUE(replicated(s)) << infos[i].name << " " << s->str();
    } else {
      EXPECT_EQ(shardedAs(s), "0:data") << infos[i].name;  // dp: the batch
    }
  }
  EXPECT_EQ(states, 8u);

  // Results: the new mu / nu split as their arguments, so the next step
  // takes them as they are; the new parameters and the loss replicated.
  OpId ret = f.returnOp();
  ASSERT_EQ(m.numOperands(ret), 13u);
  for (uint32_t r = 0; r < m.numOperands(ret); ++r) {
    std::string name = resultName(m, p.func, r);
    const std::optional<TensorSharding> &s = p.state[m.operand(ret, r)];
    if (name.find("opt_state") != std::string::npos) {
      // Results 4..11 carry arguments 4..11.
      EXPECT_EQ(shardedAs(s), shardedAs(p.state[f.args()[r]])) << name;
      EXPECT_FALSE(replicated(s)) << name;
    } else {
      EXPECT_TRUE(replicated(s)) << name << " " << s->str();
    }
  }

  // Each new parameter is `param - step`: the step, computed from the split
  // moments, is split too; the parameter is not. So the update runs on the
  // slices and the new parameter is gathered from them.
  for (uint32_t r = 0; r < 4; ++r) {
    OpId sub = m.definingOp(m.operand(ret, r));
    ASSERT_NE(sub, kNone);
    ASSERT_TRUE(m.isa(sub, "stablehlo.subtract"));
    EXPECT_EQ(m.operand(sub, 0), f.args()[r]);
    EXPECT_FALSE(replicated(p.state[m.operand(sub, 1)])) << resultName(m, p.func, r);
  }

  // The report lists exactly the optimizer-state arguments.
  ASSERT_EQ(p.report.size(), 2u);
  EXPECT_EQ(p.report[1]["kind"], "zero1");
  ASSERT_EQ(p.report[1]["sharded"].size(), 8u);
  for (const nlohmann::json &e : p.report[1]["sharded"])
    EXPECT_EQ(e["argument"].get<std::string>().rfind("opt_state", 0), 0u) << e.dump();
}

TEST(Zero1Tactic, LeavesGradientsAndActivationsReplicated) {
  // zero1 alone: every matmul (forward, and the weight and input gradients)
  // stays whole; only the optimizer update is split.
  Planned p = plan(mlpStep(), "zero1", Mesh{{{"data", 2}}, {}});
  ASSERT_TRUE(p.m);
  for (OpId dot : testing::opsNamed(*p.m, "stablehlo.dot_general"))
    EXPECT_TRUE(replicated(p.state[p.m->result(dot, 0)])) << p.m->where(dot);
}

TEST(Zero1Tactic, StepWithoutOptimizerStateShardsNothing) {
  // A forward pass: a weight and an input, no optimizer state.
  Planned p = plan(R"(
func.func @main(%x: tensor<8x16xf32> {jax.arg_info = "batch['x']"},
                %w: tensor<16x16xf32> {jax.arg_info = "params['w']"}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
)",
                   "zero1", Mesh{{{"data", 2}}, {}});
  ASSERT_TRUE(p.m);
  for (const std::optional<TensorSharding> &s : p.state) EXPECT_TRUE(replicated(s));
  ASSERT_EQ(p.report.size(), 1u);
  EXPECT_TRUE(p.report[0]["sharded"].empty());
  ASSERT_EQ(p.report[0]["skipped"].size(), 1u);
  EXPECT_NE(p.report[0]["skipped"][0].get<std::string>().find("no optimizer-state argument"), std::string::npos);
}

}  // namespace
}  // namespace autopart
