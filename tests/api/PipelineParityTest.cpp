// `autopart plan` completes a program's own shardings exactly as XLA does:
// on every shared model that carries shardings, the plan with no tactic
// (`--tactics remat:none`: the plan is the completion alone) and the input
// itself, both run through `-sdy-propagation-pipeline` (the registered
// pass, as `autopart-opt` runs it), give the same shardings op by op. So
// the plan neither loses a sharding XLA would infer nor adds one XLA would
// not, and the step a plan is priced at is the step XLA would run.
//
//   kimi_k2_1layer_sharded: manual computation in_shardings/out_shardings;
//   pipeline(input) and pipeline(plan) agree on every op and signature.
#include <gtest/gtest.h>

#include <filesystem>

#include "api/Plan.h"
#include "asm/Parser.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"
#include "propagation/CompleteShardings.h"
#include "xla/ImportPipeline.h"

namespace autopart {
namespace {

// A sharding as the axes of each dimension: null (no sharding) and an
// explicitly replicated one read the same, as they mean the same to XLA.
using Axes = std::vector<std::vector<AxisRef>>;

Axes axesOf(const Module &m, const TensorSharding *s, TypeId type) {
  Axes axes(m.types.isTensor(type) ? size_t(m.types.rank(type)) : 0);
  if (s)
    for (size_t d = 0; d < s->dims.size() && d < axes.size(); ++d) axes[d] = s->dims[d].axes;
  return axes;
}

std::string str(const Axes &axes) {
  std::string out = "[";
  for (const std::vector<AxisRef> &dim : axes) {
    out += "{";
    for (const AxisRef &a : dim) out += a.str() + ",";
    out += "}";
  }
  return out + "]";
}

// Every sharding of the pipeline's output, in order: per function its
// arguments and results, then each op's name and result shardings.
std::vector<std::string> completedShardings(const std::string &text, const std::string &fileName) {
  ParseError perr;
  std::unique_ptr<Module> m = parseModule(text, fileName, &perr);
  EXPECT_TRUE(m) << perr.full;
  if (!m) return {};
  Diagnostics diags;
  EXPECT_TRUE(readXlaShardings(*m, diags)) << diags.errorText();
  const PassInfo *pipeline = lookupPass("sdy-propagation-pipeline");
  EXPECT_TRUE(pipeline);
  if (!pipeline) return {};
  EXPECT_TRUE(pipeline->run(*m, PassOptions{}, diags)) << fileName << ": " << diags.errorText();
  std::vector<std::string> out;
  for (OpId func : m->functions()) {
    FuncView f{*m, func};
    out.push_back("func @" + std::string(f.name()));
    for (ValueId arg : f.args()) out.push_back("  arg " + str(axesOf(*m, valueSharding(*m, arg), m->type(arg))));
    std::vector<TypeId> results = f.resultTypes();
    for (size_t i = 0; i < results.size(); ++i) {
      AttrId a = f.resultAttr(i, "sdy.sharding");
      const TensorSharding *s = a != kNoAttr && m->attrs.kind(a) == AttrKind::Sharding ? m->attrs.get(a).sharding.get()
                                                                                           : nullptr;
      out.push_back("  result " + str(axesOf(*m, s, results[i])));
    }
    m->walk(func, [&](OpId op) {
      std::string line = "  " + std::string(m->opName(op));
      for (uint32_t i = 0; i < m->numResults(op); ++i)
        line += " " + str(axesOf(*m, resultSharding(*m, op, i), m->type(m->result(op, i))));
      out.push_back(line);
    });
  }
  return out;
}

void expectPlanIsThePipeline(const std::string &model, const std::string &mesh) {
  std::string path = std::string(AUTOPART_SHARED_DIR) + "/models/" + model + ".mlir";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not there";
  PlanRequest r;
  Diagnostics diags;
  ASSERT_TRUE(readFile(path, r.program.text, diags)) << diags.errorText();
  r.program.fileName = path;
  r.mesh = mesh;
  r.tactics = "remat:none";
  PlanResult plan = planProgram(r, diags);
  ASSERT_TRUE(plan.ok) << diags.errorText();
  // The test means something only where the input has shardings to complete.
  {
    ParseError perr;
    std::unique_ptr<Module> m = parseModule(r.program.text, path, &perr);
    ASSERT_TRUE(m);
    ASSERT_TRUE(readXlaShardings(*m, diags));
    ASSERT_GT(countUserShardings(*m), 0u) << model << " carries no sharding";
  }
  std::vector<std::string> fromInput = completedShardings(r.program.text, path);
  std::vector<std::string> fromPlan = completedShardings(plan.text, path + " (planned)");
  ASSERT_EQ(fromInput.size(), fromPlan.size()) << model;
  size_t differing = 0;
  for (size_t k = 0; k < fromInput.size(); ++k)
    if (fromInput[k] != fromPlan[k] && ++differing <= 5)
      ADD_FAILURE() << model << " entry " << k << ":\n  input: " << fromInput[k] << "\n  plan:  " << fromPlan[k];
  EXPECT_EQ(differing, 0u) << model;
}

// The shared models that carry shardings: Shardy-annotated exports with
// meshes of their own and manual computations. (pt_bert_base and
// searchless_chess_270m carry only `mhlo.sharding = "{replicated}"`, which
// XLA's import reads as no sharding: nothing to complete.)
TEST(ApiPipelineParity, JaxMlpPipelineLoss) { expectPlanIsThePipeline("jax_mlp_pipeline_loss", ""); }
TEST(ApiPipelineParity, KimiK2Sharded) { expectPlanIsThePipeline("kimi_k2_1layer_sharded", ""); }
TEST(ApiPipelineParity, GptOss20bSharded2d) { expectPlanIsThePipeline("gpt_oss_20b_sharded_2d", ""); }
TEST(ApiPipelineParity, Llama31Instruct) { expectPlanIsThePipeline("llama31_8b_instruct", ""); }

}  // namespace
}  // namespace autopart
