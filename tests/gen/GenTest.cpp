// The benchmark generators: every program parses with our parser, has the
// argument roles and parameter counts its configuration implies, and goes
// through the named-dimension analysis; bad sizes are errors, not programs.
#include <gtest/gtest.h>

#include "analysis/NamedDimensions.h"
#include "gen/Models.h"
#include "tactics/ArgumentRoles.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

std::map<ArgRole, int> countRoles(const Module &m) {
  std::map<ArgRole, int> n;
  for (const ArgumentInfo &a : classifyArguments(m, m.functions().front())) ++n[a.role];
  return n;
}

TEST(Gen, MlpParsesWithRolesAndParameterCount) {
  gen::MlpConfig c;
  c.batch = 16;
  c.input = 12;
  c.width = 32;
  c.layers = 2;
  c.classes = 5;
  gen::GenResult r = gen::generateMlp(c);
  EXPECT_EQ(r.numParams, 12 * 32 + 32 + 32 * 32 + 32 + 32 * 5 + 5);
  auto m = testing::parse(r.text, "gen.mlir");
  ASSERT_TRUE(m);
  FuncView f{*m, m->functions().front()};
  // 6 params, 12 Adam moments, x and the labels; 18 updated tensors + loss.
  EXPECT_EQ(f.args().size(), 6u + 12u + 2u);
  EXPECT_EQ(f.numResults(), 18u + 1u);
  std::map<ArgRole, int> roles = countRoles(*m);
  EXPECT_EQ(roles[ArgRole::Parameter], 6);
  EXPECT_EQ(roles[ArgRole::OptimizerState], 12);
  EXPECT_EQ(roles[ArgRole::Data], 2);
  EXPECT_EQ(m->types.str(m->type(f.args()[0])), "tensor<12x32xf32>");
  EXPECT_EQ(m->types.str(m->type(f.args().back())), "tensor<16xi32>");
  NamedDimensions names = analyzeNamedDimensions(*m);
  EXPECT_FALSE(names.names.empty());
}

TEST(Gen, GptParsesWithAttentionConflictAndParameterCount) {
  gen::GptConfig c;
  c.layers = 2;
  c.dModel = 32;
  c.heads = 4;
  c.headDim = 8;
  c.ffn = 128;
  c.seq = 16;
  c.batch = 4;
  c.vocab = 64;
  gen::GenResult r = gen::generateGpt(c);
  const int64_t M = 32, F = 128, HD = 32;
  int64_t perLayer = 4 * M + 3 * M * HD + HD * M + M * F + F + F * M + M;
  EXPECT_EQ(r.numParams, 64 * M + 16 * M + 2 * perLayer + 2 * M);
  auto m = testing::parse(r.text, "gen.mlir");
  ASSERT_TRUE(m);
  std::map<ArgRole, int> roles = countRoles(*m);
  EXPECT_EQ(roles[ArgRole::Parameter], 2 + 2 * 12 + 2);
  EXPECT_EQ(roles[ArgRole::OptimizerState], 2 * (2 + 2 * 12 + 2));
  EXPECT_EQ(roles[ArgRole::Data], 2);
  // q . k^T puts the sequence name on both key and query dimensions of the
  // scores: the analysis reports attention conflicts.
  NamedDimensions names = analyzeNamedDimensions(*m);
  EXPECT_FALSE(names.conflicts.empty());
  size_t gathers = testing::opsNamed(*m, "stablehlo.gather").size();
  size_t scatters = testing::opsNamed(*m, "stablehlo.scatter").size();
  EXPECT_EQ(gathers, 1u);   // token lookup
  EXPECT_EQ(scatters, 1u);  // its gradient
}

TEST(Gen, Gpt3PresetHas175BillionParameters) {
  std::optional<gen::GptConfig> c = gen::gptPreset("175b");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layers, 96);
  EXPECT_EQ(c->dModel, 12288);
  // 12 L d^2 + embeddings, about 174.6e9 (the paper rounds to 175B).
  const double L = 96, d = 12288, V = 50304, S = 2048;
  double expected = L * (12 * d * d + 13 * d) + V * d + S * d + 2 * d;
  EXPECT_NEAR(expected, 174.6e9, 0.1e9);
  for (const std::string &name : gen::gptPresetNames()) EXPECT_TRUE(gen::gptPreset(name)) << name;
  EXPECT_FALSE(gen::gptPreset("1t"));
}

TEST(Gen, GnnGathersAndScattersOverEdges) {
  gen::GnnConfig c;
  c.nodes = 32;
  c.edges = 96;
  c.features = 8;
  c.hidden = 16;
  c.layers = 2;
  c.classes = 4;
  gen::GenResult r = gen::generateGnn(c);
  EXPECT_EQ(r.numParams, (8 * 16 * 2) + (16 * 16 * 2) + 16 * 4 + 4);
  auto m = testing::parse(r.text, "gen.mlir");
  ASSERT_TRUE(m);
  size_t gathers = testing::opsNamed(*m, "stablehlo.gather").size();
  size_t scatters = testing::opsNamed(*m, "stablehlo.scatter").size();
  // Forward: one gather and one scatter per layer. Backward: the scatter's
  // transpose (a gather) per layer, the gather's transpose (a scatter) for
  // every layer but the first, whose input is data.
  EXPECT_EQ(gathers, 2u + 2u);
  EXPECT_EQ(scatters, 2u + 1u);
  std::map<ArgRole, int> roles = countRoles(*m);
  EXPECT_EQ(roles[ArgRole::Parameter], 6);
  EXPECT_EQ(roles[ArgRole::Data], 4);
  NamedDimensions names = analyzeNamedDimensions(*m);
  EXPECT_FALSE(names.names.empty());
}

TEST(Gen, InconsistentSizesAreErrors) {
  gen::GptConfig c;
  c.heads = 0;
  EXPECT_THROW(gen::generateGpt(c), gen::GenError);
  gen::MlpConfig m;
  m.width = -1;
  EXPECT_THROW(gen::generateMlp(m), gen::GenError);
  gen::StablehloEmitter e("f32");
  gen::Tensor a = e.arg({2, 3}, "a"), b = e.arg({4, 5}, "b");
  EXPECT_THROW(e.dot(a, b, {}, {}, {1}, {0}), gen::GenError);  // 3 vs 4
  EXPECT_THROW(e.binary("add", a, b), gen::GenError);
  EXPECT_THROW(e.reshape(a, {5}), gen::GenError);
}

}  // namespace
}  // namespace autopart
