// The benchmark generators: every program parses with our parser, has the
// argument roles and parameter counts its configuration implies, and goes
// through the named-dimension analysis; bad sizes are errors, not programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "analysis/ArgumentRoles.h"
#include "analysis/NamedDimensions.h"
#include "gen/Models.h"
#include "sim/Flops.h"

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
  Diagnostics diags;
  std::optional<gen::GenResult> generated = gen::generateMlp(c, diags);
  ASSERT_TRUE(generated) << diags.errorText();
  gen::GenResult r = std::move(*generated);
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
  Diagnostics diags;
  std::optional<gen::GenResult> generated = gen::generateGpt(c, diags);
  ASSERT_TRUE(generated) << diags.errorText();
  gen::GenResult r = std::move(*generated);
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

gen::GptConfig smallGpt() {
  gen::GptConfig c;
  c.layers = 3;
  c.dModel = 32;
  c.heads = 4;
  c.headDim = 8;
  c.ffn = 128;
  c.seq = 16;
  c.batch = 4;
  c.vocab = 64;
  return c;
}

// Converts from `from` to `to` element types (type strings end in the
// element type: tensor<8x32xf32>).
size_t countConverts(const Module &m, const std::string &from, const std::string &to) {
  size_t n = 0;
  for (OpId op : testing::opsNamed(m, "stablehlo.convert")) {
    std::string_view a = m.types.str(m.type(m.operand(op, 0))), b = m.types.str(m.type(m.result(op)));
    n += a.ends_with(from + ">") && b.ends_with(to + ">");
  }
  return n;
}

double dotFlops(const Module &m) {
  double total = 0;
  for (OpId op : testing::opsNamed(m, "stablehlo.dot_general")) total += opFlops(m, op);
  return total;
}

TEST(Gen, GptMasterTypeSameAsComputeIsTheDefaultProgram) {
  gen::GptConfig c = smallGpt();
  std::string plain = testing::generatedText(gen::generateGpt, c);
  c.masterDtype = c.dtype;
  EXPECT_EQ(testing::generatedText(gen::generateGpt, c), plain);
}

TEST(Gen, GptMixedPrecisionHasF32MastersAndOneCastEachWay) {
  gen::GptConfig c = smallGpt();
  c.dtype = "bf16";
  c.masterDtype = "f32";
  auto m = testing::parse(testing::generatedText(gen::generateGpt, c), "gen.mlir");
  ASSERT_TRUE(m);
  const size_t numParams = 2 + 3 * 12 + 2;
  FuncView f{*m, m->functions().front()};
  ASSERT_EQ(f.args().size(), 3 * numParams + 2);
  // Parameters and both Adam moments are f32 arguments, the batch i32.
  for (size_t i = 0; i < 3 * numParams; ++i)
    EXPECT_TRUE(m->types.str(m->type(f.args()[i])).ends_with("xf32>")) << i;
  std::map<ArgRole, int> roles = countRoles(*m);
  EXPECT_EQ(roles[ArgRole::Parameter], int(numParams));
  EXPECT_EQ(roles[ArgRole::OptimizerState], int(2 * numParams));
  // One cast down per parameter in the forward, one gradient cast up before
  // Adam (the tied embedding's two uses share one of each), and the loss's
  // one-hot i1 -> bf16.
  EXPECT_EQ(countConverts(*m, "f32", "bf16"), numParams);
  EXPECT_EQ(countConverts(*m, "bf16", "f32"), numParams);
  EXPECT_EQ(testing::opsNamed(*m, "stablehlo.convert").size(), 2 * numParams + 1);
  // The forward and backward compute in bf16.
  for (OpId op : testing::opsNamed(*m, "stablehlo.dot_general"))
    EXPECT_TRUE(m->types.str(m->type(m->result(op))).ends_with("bf16>"));
}

TEST(Gen, GptFullRematRecomputesEachLayerBehindOneBarrier) {
  gen::GptConfig c = smallGpt();
  auto plain = testing::parse(testing::generatedText(gen::generateGpt, c), "plain.mlir");
  c.remat = gen::Remat::Full;
  auto remat = testing::parse(testing::generatedText(gen::generateGpt, c), "remat.mlir");
  ASSERT_TRUE(plain && remat);
  EXPECT_TRUE(testing::opsNamed(*plain, "stablehlo.optimization_barrier").empty());
  std::vector<OpId> barriers = testing::opsNamed(*remat, "stablehlo.optimization_barrier");
  ASSERT_EQ(barriers.size(), size_t(c.layers));
  // The layer's input and the 11 parameters the recomputation reads (all
  // but the MLP's output bias).
  for (OpId b : barriers) EXPECT_EQ(remat->numOperands(b), 12u);
  // Per layer the recomputation repeats 7 of the forward's 8 dots: q, k, v,
  // scores, probabilities . v, the attention output and w1; not w2, whose
  // result no gradient reads (jax.checkpoint's DCE drops it).
  size_t dotsPlain = testing::opsNamed(*plain, "stablehlo.dot_general").size();
  size_t dotsRemat = testing::opsNamed(*remat, "stablehlo.dot_general").size();
  EXPECT_EQ(dotsRemat, dotsPlain + 7 * size_t(c.layers));
  const double B = double(c.batch), S = double(c.seq), M = double(c.dModel), HD = double(c.heads * c.headDim),
               F = double(c.ffn), V = double(c.vocab), L = double(c.layers);
  const double qkvo = 4 * 2 * B * S * M * HD, attn = 2 * 2 * B * S * S * HD, mlp = 2 * 2 * B * S * M * F;
  const double forwardLayer = qkvo + attn + mlp, w2 = mlp / 2;
  const double embedding = 3 * 2 * B * S * V * M;  // logits, their input and wte gradients
  double layersPlain = dotFlops(*plain) - embedding, layersRemat = dotFlops(*remat) - embedding;
  EXPECT_DOUBLE_EQ(layersPlain, 3 * L * forwardLayer);  // forward + backward (2x)
  EXPECT_DOUBLE_EQ(layersRemat - layersPlain, L * (forwardLayer - w2));
  // An extra forward, less its last projection: a bit under 4/3.
  EXPECT_GT(layersRemat / layersPlain, 1.2);
  EXPECT_LT(layersRemat / layersPlain, 4.0 / 3.0);
}

TEST(Gen, GptMixedPrecisionRematCastsTheBarrieredMasters) {
  gen::GptConfig c = smallGpt();
  c.masterDtype = "f32";
  c.remat = gen::Remat::Full;
  auto m = testing::parse(testing::generatedText(gen::generateGpt, c), "gen.mlir");
  ASSERT_TRUE(m);
  const size_t numParams = 2 + 3 * 12 + 2;
  for (OpId b : testing::opsNamed(*m, "stablehlo.optimization_barrier")) {
    EXPECT_TRUE(m->types.str(m->type(m->operand(b, 0))).ends_with("xbf16>"));  // the saved layer input
    for (uint32_t i = 1; i < m->numOperands(b); ++i)
      EXPECT_TRUE(m->types.str(m->type(m->operand(b, i))).ends_with("xf32>"));  // master parameters
  }
  // The forward's casts, the recomputations' (11 a layer), the gradients'.
  EXPECT_EQ(countConverts(*m, "f32", "bf16"), numParams + 11 * size_t(c.layers));
  EXPECT_EQ(countConverts(*m, "bf16", "f32"), numParams);
}

int countOps(const Module &m, const char *name) { return int(testing::opsNamed(m, name).size()); }

// Lines of the generated text that contain every one of `parts`.
int countLines(const std::string &text, std::initializer_list<const char *> parts) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    bool all = true;
    for (const char *p : parts) all = all && line.find(p) != std::string::npos;
    n += all;
  }
  return n;
}

// Ops named `name` whose result (the last, for rng_bit_generator's bits)
// has type `type`.
size_t countTyped(const Module &m, const char *name, const std::string &type) {
  size_t n = 0;
  for (OpId op : testing::opsNamed(m, name)) n += m.types.str(m.type(m.result(op, m.numResults(op) - 1))) == type;
  return n;
}

TEST(Gen, GptDropoutZeroIsTheProgramWithoutDropout) {
  for (gen::Remat remat : {gen::Remat::None, gen::Remat::Full}) {
    gen::GptConfig c = smallGpt();
    c.masterDtype = "f32";
    c.remat = remat;
    std::string plain = testing::generatedText(gen::generateGpt, c);
    c.dropout = 0;
    std::string text = testing::generatedText(gen::generateGpt, c);
    EXPECT_EQ(text, plain);
    EXPECT_EQ(text.find("rng"), std::string::npos);
  }
}

TEST(Gen, GptDropoutDrawsThreeMasksPerLayerFromOneThreadedState) {
  gen::GptConfig c = smallGpt();
  auto plain = testing::parse(testing::generatedText(gen::generateGpt, c), "plain.mlir");
  c.dropout = 0.1;
  auto m = testing::parse(testing::generatedText(gen::generateGpt, c), "dropout.mlir");
  ASSERT_TRUE(plain && m);
  const size_t L = size_t(c.layers);
  FuncView f{*m, m->functions().front()}, fp{*plain, plain->functions().front()};
  // One more argument, the state, after the batch; its next value one more
  // result, after the loss.
  ASSERT_EQ(f.args().size(), fp.args().size() + 1);
  ASSERT_EQ(f.numResults(), fp.numResults() + 1);
  ValueId rng = f.args().back();
  EXPECT_EQ(m->types.str(m->type(rng)), "tensor<2xui64>");
  // Three generators a layer, in a chain from the argument to the result.
  std::vector<OpId> gens = testing::opsNamed(*m, "stablehlo.rng_bit_generator");
  ASSERT_EQ(gens.size(), 3 * L);
  ValueId state = rng;
  for (OpId g : gens) {
    EXPECT_EQ(m->operand(g, 0), state);
    state = m->result(g, 0);
  }
  OpId ret = f.returnOp();
  EXPECT_EQ(m->operand(ret, m->numOperands(ret) - 1), state);
  // Masks: the attention probabilities' [B, H, S, S], the attention and
  // MLP outputs' [B, S, M]; u32 bits, f32 uniforms, i1 masks.
  const std::string bhss = "4x4x16x16", bsm = "4x16x32";
  EXPECT_EQ(countTyped(*m, "stablehlo.rng_bit_generator", "tensor<" + bhss + "xui32>"), L);
  EXPECT_EQ(countTyped(*m, "stablehlo.rng_bit_generator", "tensor<" + bsm + "xui32>"), 2 * L);
  EXPECT_EQ(countTyped(*m, "stablehlo.bitcast_convert", "tensor<" + bsm + "xf32>"), 2 * L);
  EXPECT_EQ(countTyped(*m, "stablehlo.shift_right_logical", "tensor<" + bhss + "xui32>"), L);
  const std::string maskType = "-> tensor<" + bhss + "xi1>";
  EXPECT_EQ(countLines(testing::generatedText(gen::generateGpt, c), {"stablehlo.compare  LT", maskType.c_str()}),
            int(L));
  // Each mask selects twice: the forward's value, the backward's gradient.
  std::vector<ValueId> masks;
  for (OpId op : testing::opsNamed(*m, "stablehlo.compare"))
    if (m->types.str(m->type(m->operand(op, 0))).ends_with("xf32>")) masks.push_back(m->result(op));
  ASSERT_EQ(masks.size(), 3 * L);
  for (ValueId mask : masks) {
    size_t selects = 0;
    for (OpId op : testing::opsNamed(*m, "stablehlo.select")) selects += m->operand(op, 0) == mask;
    EXPECT_EQ(selects, 2u);
  }
  EXPECT_EQ(countOps(*m, "stablehlo.select"), countOps(*plain, "stablehlo.select") + int(6 * L));
  // No dot added or removed.
  EXPECT_EQ(countOps(*m, "stablehlo.dot_general"), countOps(*plain, "stablehlo.dot_general"));
}

TEST(Gen, GptDropoutWithRematRedrawsTheMasksFromTheBarrieredState) {
  gen::GptConfig c = smallGpt();
  c.masterDtype = "f32";
  c.remat = gen::Remat::Full;
  auto plain = testing::parse(testing::generatedText(gen::generateGpt, c), "plain.mlir");
  c.dropout = 0.1;
  auto m = testing::parse(testing::generatedText(gen::generateGpt, c), "dropout.mlir");
  ASSERT_TRUE(plain && m);
  const size_t L = size_t(c.layers);
  // Per layer: the forward's three generators and the recomputation's three.
  std::vector<OpId> gens = testing::opsNamed(*m, "stablehlo.rng_bit_generator");
  ASSERT_EQ(gens.size(), 6 * L);
  std::vector<OpId> barriers = testing::opsNamed(*m, "stablehlo.optimization_barrier");
  ASSERT_EQ(barriers.size(), L);
  std::vector<OpId> order;
  m->walk(m->top, [&](OpId op) { order.push_back(op); });
  auto at = [&](OpId op) { return std::find(order.begin(), order.end(), op) - order.begin(); };
  for (size_t b = 0; b < L; ++b) {
    OpId barrier = barriers[b];
    // Input, 11 parameters and, last, the state the layer's forward began
    // with: layer L-1-b's first generator's operand. Nothing of the masks
    // crosses the barrier.
    ASSERT_EQ(m->numOperands(barrier), 13u);
    ValueId entry = m->operand(barrier, 12);
    EXPECT_EQ(m->types.str(m->type(entry)), "tensor<2xui64>");
    EXPECT_EQ(entry, m->operand(gens[3 * (L - 1 - b)], 0));
    for (uint32_t i = 0; i < 12; ++i) EXPECT_FALSE(m->types.str(m->type(m->operand(barrier, i))).ends_with("xi1>"));
    // The recomputation's chain starts at the barrier's copy of the state.
    OpId first = gens[3 * L + 3 * b];
    EXPECT_EQ(m->operand(first, 0), m->result(barrier, 12));
    EXPECT_EQ(m->operand(gens[3 * L + 3 * b + 1], 0), m->result(first, 0));
  }
  // The backward reads only the recomputed masks: every mask drawn before
  // the first barrier is selected by ops before it.
  const auto firstBarrier = at(barriers.front());
  std::vector<ValueId> forwardMasks;
  for (OpId op : testing::opsNamed(*m, "stablehlo.compare"))
    if (at(op) < firstBarrier && m->types.str(m->type(m->operand(op, 0))).ends_with("xf32>"))
      forwardMasks.push_back(m->result(op));
  EXPECT_EQ(forwardMasks.size(), 3 * L);
  for (OpId op : testing::opsNamed(*m, "stablehlo.select")) {
    if (std::find(forwardMasks.begin(), forwardMasks.end(), m->operand(op, 0)) != forwardMasks.end()) {
      EXPECT_LT(at(op), firstBarrier);
    }
  }
  // Selects a layer: 3 forward, 2 recomputed (not the MLP output's, whose
  // projection is not recomputed), 3 backward.
  EXPECT_EQ(countOps(*m, "stablehlo.select"), countOps(*plain, "stablehlo.select") + int(8 * L));
  EXPECT_EQ(countOps(*m, "stablehlo.dot_general"), countOps(*plain, "stablehlo.dot_general"));
}

TEST(Gen, GptDropoutOutsideZeroToOneIsAnError) {
  for (double p : {-0.1, 1.0, 1.5}) {
    gen::GptConfig c = smallGpt();
    c.dropout = p;
    Diagnostics diags;
    EXPECT_FALSE(gen::generateGpt(c, diags)) << p;
    EXPECT_NE(diags.errorText().find("gpt: dropout must be in [0, 1)"), std::string::npos) << diags.errorText();
  }
}

TEST(Gen, GptMasterTypeNarrowerThanComputeIsAnError) {
  gen::GptConfig c = smallGpt();
  c.dtype = "f32";
  c.masterDtype = "bf16";
  Diagnostics diags;
  EXPECT_FALSE(gen::generateGpt(c, diags));
  EXPECT_NE(diags.errorText().find("gpt: master type bf16 with compute type f32"), std::string::npos)
      << diags.errorText();
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
  Diagnostics diags;
  std::optional<gen::GenResult> generated = gen::generateGnn(c, diags);
  ASSERT_TRUE(generated) << diags.errorText();
  gen::GenResult r = std::move(*generated);
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

TEST(Gen, T5HasEncoderDecoderCrossAttentionAndParameterCount) {
  gen::T5Config c;
  c.encoderLayers = 2;
  c.decoderLayers = 1;
  c.dModel = 32;
  c.heads = 4;
  c.headDim = 4;  // heads x head_dim (16) differs from d_model
  c.ffn = 64;
  c.encSeq = 16;
  c.decSeq = 8;
  c.batch = 2;
  c.vocab = 50;
  c.dtype = "f32";
  Diagnostics diags;
  std::optional<gen::GenResult> generated = gen::generateT5(c, diags);
  ASSERT_TRUE(generated) << diags.errorText();
  gen::GenResult r = std::move(*generated);
  // Embedding; per encoder layer two RMSNorm scales, q/k/v/o, the MLP
  // without biases; per decoder layer three scales, self- and
  // cross-attention, the MLP; a final scale per stack.
  const int64_t M = 32, HD = 16, F = 64, V = 50;
  int64_t encoderLayer = 2 * M + 4 * M * HD + 2 * M * F;
  int64_t decoderLayer = 3 * M + 8 * M * HD + 2 * M * F;
  EXPECT_EQ(r.numParams, V * M + 2 * encoderLayer + M + 1 * decoderLayer + M);
  auto m = testing::parse(r.text, "gen.mlir");
  ASSERT_TRUE(m);
  std::map<ArgRole, int> roles = countRoles(*m);
  const int params = 1 + 2 * 8 + 1 + 1 * 13 + 1;
  EXPECT_EQ(roles[ArgRole::Parameter], params);
  EXPECT_EQ(roles[ArgRole::OptimizerState], 2 * params);
  EXPECT_EQ(roles[ArgRole::Data], 2);
  // Two lookups into the shared embedding (inputs, shifted targets) and
  // their two scatter-add gradients.
  EXPECT_EQ(countOps(*m, "stablehlo.gather"), 2);
  EXPECT_EQ(countOps(*m, "stablehlo.scatter"), 2);
  // Cross-attention scores [B, H, decSeq, encSeq]: forward and the
  // gradient of the probabilities, per decoder layer.
  EXPECT_EQ(countLines(r.text, {"stablehlo.dot_general", "-> tensor<2x4x8x16xf32>"}), 2);
  // Encoder self-attention [B, H, 16, 16] in 2 layers, decoder [B, H, 8, 8] in 1.
  EXPECT_EQ(countLines(r.text, {"stablehlo.dot_general", "-> tensor<2x4x16x16xf32>"}), 2 * 2);
  EXPECT_EQ(countLines(r.text, {"stablehlo.dot_general", "-> tensor<2x4x8x8xf32>"}), 2);
  // The decoder reads the targets shifted right by one.
  EXPECT_EQ(countLines(r.text, {"stablehlo.slice", "[0:2, 0:7]"}), 1);
  NamedDimensions names = analyzeNamedDimensions(*m);
  EXPECT_FALSE(names.conflicts.empty());
}

TEST(Gen, T5PresetsHaveThePaperSizes) {
  std::optional<gen::T5Config> small = gen::t5Preset("t5-small");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->encoderLayers, 6);
  EXPECT_EQ(small->decoderLayers, 6);
  EXPECT_EQ(small->encSeq, 512);
  EXPECT_EQ(small->decSeq, 128);
  EXPECT_EQ(small->batch, 128);
  Diagnostics diags;
  std::optional<gen::GenResult> generated = gen::generateT5(*small, diags);
  ASSERT_TRUE(generated) << diags.errorText();
  gen::GenResult r = std::move(*generated);
  // 60,506,112: the released t5-small's 60.5M less its two 32 x 8
  // relative position bias tables.
  const int64_t M = 512, F = 2048, V = 32128;
  EXPECT_EQ(r.numParams, V * M + 6 * (2 * M + 4 * M * M + 2 * M * F) + 6 * (3 * M + 8 * M * M + 2 * M * F) + 2 * M);
  EXPECT_NEAR(double(r.numParams), 60.5e6, 0.05e6);
  std::optional<gen::T5Config> base = gen::t5Preset("t5-base"), large = gen::t5Preset("t5-large");
  ASSERT_TRUE(base && large);
  EXPECT_EQ(base->dModel, 768);
  EXPECT_EQ(large->encoderLayers, 24);
  for (const std::string &name : gen::t5PresetNames()) EXPECT_TRUE(gen::t5Preset(name)) << name;
  EXPECT_FALSE(gen::t5Preset("t5-xxl"));
}

TEST(Gen, UnetConvolutionsAndTheirGradients) {
  gen::UnetConfig c;
  c.batch = 2;
  c.height = 16;
  c.width = 8;
  c.channels = 3;
  c.baseWidth = 4;
  c.levels = 2;
  Diagnostics diags;
  std::optional<gen::GenResult> generated = gen::generateUnet(c, diags);
  ASSERT_TRUE(generated) << diags.errorText();
  gen::GenResult r = std::move(*generated);
  auto conv = [](int64_t k, int64_t in, int64_t out) { return k * k * in * out + out; };
  int64_t expected = conv(3, 3, 4) + conv(3, 4, 4) + conv(3, 4, 4)   // encoder 0 (and its downsampling)
                     + conv(3, 4, 8) + conv(3, 8, 8) + conv(3, 8, 8)  // encoder 1
                     + conv(3, 8, 16) + conv(3, 16, 16)               // bottleneck
                     + conv(3, 16 + 8, 8) + conv(3, 8, 8)             // decoder at level 1, skip concatenated
                     + conv(3, 8 + 4, 4) + conv(3, 4, 4)              // decoder at level 0
                     + conv(1, 4, 3);                                 // output
  EXPECT_EQ(r.numParams, expected);
  auto m = testing::parse(r.text, "gen.mlir");
  ASSERT_TRUE(m);
  std::map<ArgRole, int> roles = countRoles(*m);
  EXPECT_EQ(roles[ArgRole::Parameter], 2 * 13);
  EXPECT_EQ(roles[ArgRole::OptimizerState], 4 * 13);
  EXPECT_EQ(roles[ArgRole::Data], 2);
  // 13 forward convolutions, a kernel gradient for each, an input gradient
  // (of the reversed kernel) for all but the first, whose input is data.
  EXPECT_EQ(countOps(*m, "stablehlo.convolution"), 13 + 13 + 12);
  EXPECT_EQ(countOps(*m, "stablehlo.reverse"), 12);
  EXPECT_EQ(countLines(r.text, {"[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]"}), 13);
  EXPECT_EQ(countLines(r.text, {"[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]"}), 12);
  // The stride-2 downsamplings: forward, kernel gradient (the output
  // gradient dilated), input gradient (dilated, padded [1, 2]).
  EXPECT_EQ(countLines(r.text, {"stablehlo.convolution", "stride = [2, 2]"}), 2);
  EXPECT_EQ(countLines(r.text, {"stablehlo.convolution", "pad = [[1, 0], [1, 0]], rhs_dilate = [2, 2]"}), 2);
  EXPECT_EQ(countLines(r.text, {"stablehlo.convolution", "pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]"}), 2);
  // The first level's kernel gradient: image [2,16,8,3] with the output
  // gradient [2,16,8,4] gives [3,3,3,4].
  EXPECT_EQ(countLines(r.text, {"(tensor<2x16x8x3xf32>, tensor<2x16x8x4xf32>) -> tensor<3x3x3x4xf32>"}), 1);
  // Skips concatenated on channels, split again in the backward pass.
  EXPECT_EQ(countOps(*m, "stablehlo.concatenate"), 2);
  EXPECT_EQ(countOps(*m, "stablehlo.slice"), 4);
  NamedDimensions names = analyzeNamedDimensions(*m);
  EXPECT_FALSE(names.names.empty());
}

TEST(Gen, ConvolutionShapesAreChecked) {
  gen::StablehloEmitter e("f32");
  gen::Tensor x = e.arg({2, 8, 8, 3}, "x"), w = e.arg({3, 3, 4, 5}, "w");
  EXPECT_THROW(e.conv2d(x, w), gen::GenError);  // 3 input features vs 4
  gen::ConvSpec bad;
  bad.lhs = "b01x";
  gen::Tensor k = e.arg({3, 3, 3, 5}, "k");
  EXPECT_THROW(e.convolution(x, k, bad), gen::GenError);
  gen::ConvSpec big;
  gen::Tensor k9 = e.arg({9, 9, 3, 5}, "k9");
  EXPECT_THROW(e.convolution(x, k9, big), gen::GenError);  // window larger than the unpadded input
  EXPECT_EQ(e.convolution(x, k, gen::ConvSpec{}).shape, (gen::Shape{2, 6, 6, 5}));
  EXPECT_THROW(e.slice(x, {0, 0, 0, 0}, {2, 9, 8, 3}), gen::GenError);
  Diagnostics diags;
  gen::UnetConfig u;
  u.height = 60;  // not divisible by 2^3
  EXPECT_FALSE(gen::generateUnet(u, diags));
  EXPECT_NE(diags.errorText().find("unet: height and width must be divisible by 2^levels"), std::string::npos);
  gen::T5Config t;
  t.decSeq = 0;
  EXPECT_FALSE(gen::generateT5(t, diags));
  EXPECT_NE(diags.errorText().find("t5: sizes must be positive"), std::string::npos);
}

TEST(Gen, InconsistentSizesAreErrors) {
  Diagnostics diags;
  gen::GptConfig c;
  c.heads = 0;
  EXPECT_FALSE(gen::generateGpt(c, diags));
  gen::MlpConfig m;
  m.width = -1;
  EXPECT_FALSE(gen::generateMlp(m, diags));
  gen::StablehloEmitter e("f32");
  gen::Tensor a = e.arg({2, 3}, "a"), b = e.arg({4, 5}, "b");
  EXPECT_THROW(e.dot(a, b, {}, {}, {1}, {0}), gen::GenError);  // 3 vs 4
  EXPECT_THROW(e.binary("add", a, b), gen::GenError);
  EXPECT_THROW(e.reshape(a, {5}), gen::GenError);
  EXPECT_THROW(e.rngBitGenerator(a, {4}, "ui32"), gen::GenError);  // the state is tensor<2xui64>
  gen::Tensor state = e.arg({2}, "rng", "ui64");
  gen::Tensor bits = e.rngBitGenerator(state, {4}, "ui32").second;
  EXPECT_THROW(e.bitcastConvert(bits, "bf16"), gen::GenError);  // 32 bits vs 16
  EXPECT_EQ(e.bitcastConvert(bits, "f32").shape, (gen::Shape{4}));
}

}  // namespace
}  // namespace autopart
