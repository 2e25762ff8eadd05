// -sdy-pad-for-divisibility and its helpers: the divisible shape of a
// sharded tensor, the reduce identities, the shapes of ops whose operands
// grew, and the pass itself: the padded program must compute what the
// original computed (run both through the interpreter on the same inputs).
#include <gtest/gtest.h>

#include <cmath>

#include "exec/Run.h"
#include "export/DivisibleShape.h"
#include "export/PaddedResultShape.h"
#include "export/ReductionIdentity.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using testing::opsNamed;
using testing::parse;

Mesh mesh42() { return Mesh{{{"x", 4}, {"y", 2}}, {}}; }

TensorSharding sharded(std::vector<std::vector<std::string>> dims) {
  TensorSharding s = TensorSharding::closed("mesh", dims.size());
  for (size_t d = 0; d < dims.size(); ++d)
    for (const std::string &a : dims[d]) s.dims[d].axes.push_back(AxisRef{a});
  return s;
}

TEST(PadForDivisibility, DivisibleShapeRoundsEachShardedDimUp) {
  Mesh mesh = mesh42();
  EXPECT_EQ(divisibleShape({7, 5}, sharded({{"x"}, {"y"}}), mesh), (std::vector<int64_t>{8, 6}));
  EXPECT_EQ(divisibleShape({8, 4}, sharded({{"x"}, {"y"}}), mesh), (std::vector<int64_t>{8, 4}));
  // Both axes on one dimension: 8 shards.
  EXPECT_EQ(divisibleShape({6, 3}, sharded({{"x", "y"}, {}}), mesh), (std::vector<int64_t>{8, 3}));
  EXPECT_EQ(divisibleShape({kDynamic, 3}, sharded({{"x"}, {}}), mesh), (std::vector<int64_t>{kDynamic, 3}));
}

TEST(PadForDivisibility, DivisibleTypeLeavesUnshardedTypesAlone) {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%a: tensor<7x5xf32>) -> tensor<7x5xf32> {
  return %a : tensor<7x5xf32>
}
)");
  TypeId t = m->types.tensor({7, 5}, m->types.scalar("f32"));
  EXPECT_EQ(divisibleType(*m, t, nullptr), t);
  TensorSharding replicated = sharded({{}, {}});
  EXPECT_EQ(divisibleType(*m, t, &replicated), t);
  TensorSharding onX = sharded({{"x"}, {}});
  EXPECT_EQ(m->types.str(divisibleType(*m, t, &onX)), "tensor<8x5xf32>");
  TensorSharding unknownMesh = onX;
  unknownMesh.meshName = "nowhere";
  EXPECT_EQ(divisibleType(*m, t, &unknownMesh), t);
}

std::optional<std::vector<ReductionIdentity>> identitiesOf(const std::string &combiner, const std::string &type) {
  auto m = parse("func.func @f(%a: tensor<4x6x" + type + ">, %c: tensor<" + type + ">) -> tensor<4x" + type +
                 "> {\n  %0 = stablehlo.reduce(%a init: %c) applies " + combiner +
                 " across dimensions = [1] : (tensor<4x6x" + type + ">, tensor<" + type + ">) -> tensor<4x" +
                 type + ">\n  return %0 : tensor<4x" + type + ">\n}\n");
  if (!m) return std::nullopt;
  return reductionIdentities(*m, opsNamed(*m, "stablehlo.reduce").front());
}

TEST(PadForDivisibility, ReductionIdentityFollowsTheCombinerAndType) {
  auto expect = [](const std::string &combiner, const std::string &type, const std::string &spelling,
                   bool isZero) {
    auto ids = identitiesOf(combiner, type);
    ASSERT_TRUE(ids) << combiner << " " << type;
    ASSERT_EQ(ids->size(), 1u);
    EXPECT_EQ((*ids)[0].spelling, spelling) << combiner << " " << type;
    EXPECT_EQ((*ids)[0].isZero, isZero) << combiner << " " << type;
  };
  expect("stablehlo.add", "f32", "0.000000e+00", true);
  expect("stablehlo.or", "i1", "false", true);
  expect("stablehlo.multiply", "i32", "1", false);
  expect("stablehlo.maximum", "f32", "0xFF800000", false);
  expect("stablehlo.maximum", "bf16", "0xFF80", false);
  expect("stablehlo.minimum", "i8", "127", false);
  expect("stablehlo.maximum", "i16", "-32768", false);
  expect("stablehlo.minimum", "ui8", "255", false);
  expect("stablehlo.and", "i32", "-1", false);
  expect("stablehlo.and", "i1", "true", false);
  EXPECT_FALSE(identitiesOf("stablehlo.divide", "f32"));
}

TEST(PadForDivisibility, ReductionIdentityNeedsOneOpOfAccumulatorAndElement) {
  auto m = parse(R"(
func.func @f(%a: tensor<4x6xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %s = stablehlo.add %x, %y : tensor<f32>
    %t = stablehlo.add %s, %s : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }
  return %0 : tensor<4xf32>
}
)");
  EXPECT_FALSE(reductionIdentities(*m, opsNamed(*m, "stablehlo.reduce").front()));
}

TEST(PadForDivisibility, PassThroughShapeFollowsTheSharingRule) {
  auto m = parse(R"(
func.func @f(%a: tensor<7x6xf32>, %b: tensor<6x5xf32>, %c: tensor<3x5xf32>) -> tensor<7x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<7x6xf32>, tensor<6x5xf32>) -> tensor<7x5xf32>
  %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<7x5xf32>, tensor<3x5xf32>) -> tensor<10x5xf32>
  return %0 : tensor<7x5xf32>
}
)");
  OpId dot = opsNamed(*m, "stablehlo.dot_general").front();
  // lhs rows and rhs columns pass through; the contracting size does not show.
  EXPECT_EQ(passThroughShape(*m, dot, 0, {{8, 8}, {8, 6}}), (std::vector<int64_t>{8, 6}));
  EXPECT_EQ(passThroughShape(*m, dot, 0, {{7, 8}, {8, 5}}), (std::vector<int64_t>{7, 5}));
  // The concatenated dimension is not any operand's: it keeps its size.
  OpId concat = opsNamed(*m, "stablehlo.concatenate").front();
  EXPECT_EQ(passThroughShape(*m, concat, 0, {{8, 8}, {3, 8}}), (std::vector<int64_t>{10, 8}));
}

TEST(PadForDivisibility, ConvolutionShapeFollowsTheWindow) {
  auto m = parse(R"(
func.func @f(%a: tensor<1x7x3xf32>, %k: tensor<3x3x2xf32>) -> tensor<1x3x2xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 0]], lhs_dilate = [1], rhs_dilate = [2], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x7x3xf32>, tensor<3x3x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}
)");
  OpId conv = opsNamed(*m, "stablehlo.convolution").front();
  // (7 + 1 - 5) / 2 + 1 = 2; grown to 12 input rows and 4 features: (12 + 1 - 5) / 2 + 1 = 5.
  EXPECT_EQ(convolutionShape(*m, conv, {1, 7, 3}, {3, 3, 2}), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(convolutionShape(*m, conv, {1, 12, 4}, {3, 4, 2}), (std::vector<int64_t>{1, 5, 2}));
  // Input features that no longer match the kernel's are no convolution.
  EXPECT_FALSE(convolutionShape(*m, conv, {1, 12, 4}, {3, 3, 2}));
}

// Garbage in the padded rows reaches the dot_general's contracting dimension
// through an exponential, a max-reduce over a padded dimension, a pad with
// interior padding, a pad whose high edge the grown input overlaps, a
// convolution over a padded window dimension, a loop carrying a grown value,
// a concatenation and a reshape of a grown dimension: each is only right if
// the pass masks, trims or grows what it must.
const char *kSemanticsProgram = R"(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<8x8xf32>, %k: tensor<3x8x4xf32>)
    -> (tensor<8x8xf32>, tensor<8xf32>, tensor<12x8xf32>, tensor<1x4x4xf32>, tensor<8x8xf32>, tensor<6x8xf32>,
        tensor<12x8xf32>, tensor<48xf32>) {
  %0 = stablehlo.slice %a [0:6, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<6x8xf32>
  %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x8xf32>
  %2 = stablehlo.slice %b [0:6, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<6x8xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [0] x [0] : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
  %4 = stablehlo.transpose %1, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<6x8xf32>) -> tensor<8x6xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %5 = stablehlo.reduce(%4 init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %6 = stablehlo.pad %1, %one, low = [1, 0], high = [0, 0], interior = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x8xf32>, tensor<f32>) -> tensor<12x8xf32>
  %7 = stablehlo.reshape %1 : (tensor<6x8xf32>) -> tensor<1x6x8xf32>
  %8 = stablehlo.convolution(%7, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x8xf32>, tensor<3x8x4xf32>) -> tensor<1x4x4xf32>
  %9 = stablehlo.pad %1, %one, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %10:2 = stablehlo.while(%it = %1, %i = %c0) : tensor<6x8xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, []>]>}
    cond {
      %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = stablehlo.add %i, %c1 : tensor<i32>
      %twice = stablehlo.add %it, %it {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x8xf32>
      stablehlo.return %twice, %next : tensor<6x8xf32>, tensor<i32>
    }
  %11 = stablehlo.concatenate %1, %1, dim = 0 : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<12x8xf32>
  %12 = stablehlo.reshape %1 : (tensor<6x8xf32>) -> tensor<48xf32>
  return %3, %5, %6, %8, %9, %10#0, %11, %12 : tensor<8x8xf32>, tensor<8xf32>, tensor<12x8xf32>, tensor<1x4x4xf32>,
      tensor<8x8xf32>, tensor<6x8xf32>, tensor<12x8xf32>, tensor<48xf32>
}
)";

std::vector<exec::TensorPtr> runMain(const Module &m) {
  exec::RunResult r = exec::runModule(m, {"main", "random", 7, {}});
  EXPECT_EQ(r.functions.size(), 1u);
  if (r.functions.size() != 1) return {};
  EXPECT_FALSE(r.functions[0].failed) << r.functions[0].error;
  return r.functions[0].results;
}

TEST(PadForDivisibility, PaddedProgramComputesWhatTheOriginalDid) {
  auto original = parse(kSemanticsProgram);
  auto padded = parse(kSemanticsProgram);
  ASSERT_TRUE(original && padded);
  Diagnostics diags;
  ASSERT_TRUE(lookupPass("sdy-pad-for-divisibility")->run(*padded, PassOptions{}, diags)) << diags.errorText();

  // The pass did grow things: the first slice now yields 8 rows, and the
  // dot_general reads a masked (selected) operand.
  OpId firstSlice = opsNamed(*padded, "stablehlo.slice").front();
  EXPECT_EQ(padded->types.str(padded->type(padded->result(firstSlice))), "tensor<8x8xf32>");
  EXPECT_FALSE(opsNamed(*padded, "stablehlo.select").empty());

  std::vector<exec::TensorPtr> want = runMain(*original), got = runMain(*padded);
  ASSERT_EQ(want.size(), 8u);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i]->shape, want[i]->shape) << "result " << i;
    const float *w = want[i]->data<float>(), *g = got[i]->data<float>();
    for (int64_t e = 0; e < want[i]->numElements(); ++e)
      ASSERT_NEAR(g[e], w[e], 1e-4f * (1 + std::fabs(w[e]))) << "result " << i << " element " << e;
  }
}

TEST(PadForDivisibility, EntrySignatureMustAlreadyDivide) {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6xf32> {
  return %a : tensor<6xf32>
}
)");
  Diagnostics diags;
  EXPECT_FALSE(lookupPass("sdy-pad-for-divisibility")->run(*m, PassOptions{}, diags));
  EXPECT_NE(diags.errorText().find("argument #0 has a non-divisible sharding"), std::string::npos);
}

}  // namespace
}  // namespace autopart
