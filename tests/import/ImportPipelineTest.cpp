// The import pipeline runs its steps in Shardy's order, each found by its
// registered name; explicit gather batching on its own.
#include <gtest/gtest.h>

#include "import/ImportPipeline.h"

#include "tests/import/ImportTestUtil.h"

namespace autopart {
namespace {

using testing::count;
using testing::runPass;

TEST(ImportPipeline, EveryStepIsRegistered) {
  for (const std::string &step : importPipelineSteps()) EXPECT_NE(lookupPass(step), nullptr) << step;
  EXPECT_NE(lookupPass("sdy-import-pipeline"), nullptr);
}

TEST(ImportPipeline, CleansUpThenAddsEdgesThenAppliesConstraints) {
  std::string out = runPass(R"(
sdy.mesh @mesh = <["a"=2, "one"=1]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  %1 = stablehlo.multiply %arg0, %c : tensor<8xf32>
  %2 = sdy.sharding_constraint %0 <mesh<["a"=2, "one"=1]>, [{"a", "one"}]> : tensor<8xf32>
  %3 = stablehlo.optimization_barrier %1 : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
})",
                            "sdy-import-pipeline", "dedup-functions-fully=true");
  EXPECT_EQ(count(out, "sdy.constant"), 2u) << out;             // split per user
  EXPECT_EQ(out.find("mesh<["), std::string::npos) << out;      // lifted (and merged)
  EXPECT_EQ(out.find("\"one\"}"), std::string::npos) << out;    // size-one axis gone
  EXPECT_EQ(count(out, "sdy.data_flow_edge"), 1u) << out;       // the barrier's result
  EXPECT_NE(out.find("stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>}"),
            std::string::npos)
      << out;
}

TEST(ExplicitBatching, IotaComponentBecomesABatchingDimension) {
  std::string out = runPass(R"(
func.func @f(%operand: tensor<4x8xf32>, %offset: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %iota, %offset, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %result = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1>, indices_are_sorted = false
  } : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %result : tensor<4x1xf32>
})",
                            "sdy-explicit-gather-scatter-batching");
  EXPECT_NE(out.find("operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1]"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\"stablehlo.gather\"(%arg0, %arg1)"), std::string::npos) << out;  // the offsets alone
  EXPECT_EQ(out.find("stablehlo.iota"), std::string::npos) << out;                    // dead index math erased
}

}  // namespace
}  // namespace autopart
