// What the named tactics seed. Batch parallelism shards the batch *name*
// (dimension 0 of the highest-rank data input and what shares it), not
// dimension 0 of everything the role heuristic calls data.
#include <gtest/gtest.h>

#include "analysis/ArgumentRoles.h"
#include "analysis/NamedDimensions.h"
#include "asm/Parser.h"
#include "tactics/TacticSchedule.h"
#include "tactics/TacticSeeds.h"

namespace autopart {
namespace {

// A LayerNorm-style bias and scale never reach a contraction's right-hand
// side, so by role they look like data; with a batch of 8 they must still
// stay whole, and the labels (linked to the batch through the loss) split.
const char *kProgram = R"(
func.func @main(%x: tensor<8x16xf32>, %scale: tensor<16xf32>, %bias: tensor<16xf32>,
                %w: tensor<16x16xf32>, %labels: tensor<8xf32>) -> tensor<f32> {
  %0 = stablehlo.broadcast_in_dim %scale, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.multiply %x, %0 : tensor<8x16xf32>
  %2 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x16xf32>
  %4 = stablehlo.dot_general %3, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %6 = stablehlo.subtract %5, %labels : tensor<8xf32>
  %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %7 : tensor<f32>
}
)";

std::vector<size_t> seededArgs(const std::string &text, int64_t data) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  if (!m) return {};
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh{{{"data", data}}, {}};
  Tactic dp;
  dp.kind = TacticKind::Named;
  dp.name = "dp";
  dp.axes = {"data"};
  TacticSeeds s = seedTactic(*m, m->functions().front(), dp, mesh, [](ValueId) { return nullptr; }, &names);
  std::vector<size_t> out;
  for (const ShardingSeed &seed : s.seeds) {
    EXPECT_EQ(seed.dim, 0);
    out.push_back(seed.argIndex);
  }
  return out;
}

TEST(TacticSeeds, BatchParallelShardsTheBatchNameOnly) {
  // x (arg 0) and the labels (arg 4); not the scale or bias (16 divides by 8
  // too), not the weight.
  EXPECT_EQ(seededArgs(kProgram, 8), (std::vector<size_t>{0, 4}));
}

TEST(TacticSeeds, BatchOfOneShardsNothing) {
  std::string text = kProgram;
  for (size_t at; (at = text.find("8x16")) != std::string::npos;) text.replace(at, 4, "1x16");
  for (size_t at; (at = text.find("tensor<8xf32>")) != std::string::npos;) text.replace(at, 13, "tensor<1xf32>");
  EXPECT_TRUE(seededArgs(text, 4).empty());
}

TEST(ArgumentRoles, TorchXlaDeviceDataIsNotARole) {
  // torch-xla names every argument "...xla__device_data"; the weight is
  // still recognised by its use, the input stays data.
  ParseError err;
  std::unique_ptr<Module> m = parseModule(R"(
func.func @main(%arg0: tensor<4x16xf32> {jax.arg_info = "unknown|unknown|-1|unknownxla__device_data"},
                %arg1: tensor<16x16xf32> {jax.arg_info = "unknown|unknown|-1|unknownxla__device_data"}) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
)", "t.mlir", &err);
  ASSERT_TRUE(m) << err.full;
  std::vector<ArgumentInfo> infos = classifyArguments(*m, m->functions().front());
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[0].role, ArgRole::Data);
  EXPECT_EQ(infos[1].role, ArgRole::Parameter);
}

TEST(ArgumentRoles, ReturnedStateIsParameterAndContractedInputIsData) {
  // Names without roles (loc("W0"), loc("b0"), loc("x")): the step returns
  // new W0 and b0, so they are state; x reaches a contraction's right-hand
  // side in the weight gradient (dW = dh^T . x) but is not returned: data.
  ParseError err;
  std::unique_ptr<Module> m = parseModule(R"(
func.func @main(%arg0: tensor<16x8xf32> loc("W0"), %arg1: tensor<8xf32> loc("b0"), %arg2: tensor<4x16xf32> loc("x"))
    -> (tensor<16x8xf32>, tensor<8xf32>) {
  %h = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %dwt = stablehlo.dot_general %h, %arg2, contracting_dims = [0] x [0] : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %dw = stablehlo.transpose %dwt, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %w = stablehlo.subtract %arg0, %dw : tensor<16x8xf32>
  %c = stablehlo.constant dense<1.000000e-01> : tensor<8xf32>
  %b = stablehlo.subtract %arg1, %c : tensor<8xf32>
  return %w, %b : tensor<16x8xf32>, tensor<8xf32>
}
)", "t.mlir", &err);
  ASSERT_TRUE(m) << err.full;
  std::vector<ArgumentInfo> infos = classifyArguments(*m, m->functions().front());
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_EQ(infos[0].role, ArgRole::Parameter);
  EXPECT_EQ(infos[1].role, ArgRole::Parameter);
  EXPECT_EQ(infos[2].role, ArgRole::Data);
}

TEST(ArgumentRoles, IntegerStateIsNotAParameter) {
  // An RNG key the step advances and returns is carried state, but nothing
  // trains it: fsdp must not shard it like a weight.
  ParseError err;
  std::unique_ptr<Module> m = parseModule(R"(
func.func @main(%arg0: tensor<16x8xf32> loc("W0"), %arg1: tensor<2xui64> loc("key"))
    -> (tensor<16x8xf32>, tensor<2xui64>) {
  %w = stablehlo.add %arg0, %arg0 : tensor<16x8xf32>
  %k = stablehlo.add %arg1, %arg1 : tensor<2xui64>
  return %w, %k : tensor<16x8xf32>, tensor<2xui64>
}
)", "t.mlir", &err);
  ASSERT_TRUE(m) << err.full;
  std::vector<ArgumentInfo> infos = classifyArguments(*m, m->functions().front());
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[0].role, ArgRole::Parameter);
  EXPECT_EQ(infos[1].role, ArgRole::Data);
}

}  // namespace
}  // namespace autopart
