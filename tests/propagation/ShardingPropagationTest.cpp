// Module-level propagation: fixpoint, write-back and the worklist's cost.
#include <gtest/gtest.h>

#include "asm/Printer.h"
#include "propagation/ShardingPropagation.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using testing::parse;

// A chain of `n` elementwise ops from an argument sharded on "a".
std::string chain(int n) {
  std::string s = "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
                  "func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>})"
                  " -> tensor<8x8xf32> {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < n; ++i) {
    std::string cur = "%" + std::to_string(i);
    s += "  " + cur + " = stablehlo.add " + prev + ", " + prev + " : tensor<8x8xf32>\n";
    prev = cur;
  }
  return s + "  return " + prev + " : tensor<8x8xf32>\n}\n";
}

TEST(ShardingPropagation, ChainReachesTheEndInLinearSteps) {
  const int n = 2000;
  std::unique_ptr<Module> m = parse(chain(n));
  Diagnostics diags;
  PropagationStats stats;
  ASSERT_TRUE(propagateShardings(*m, {}, diags, &stats));
  EXPECT_EQ(stats.updates, size_t(n) + 1);  // every op result and the func result
  EXPECT_LE(stats.steps, size_t(3 * n));
  std::string out = printModule(*m);
  EXPECT_NE(out.find("-> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}, {?}]>})"),
            std::string::npos);
}

// Steps of equal ops share one memoized outcome only when their tensors'
// shardings are equal too: the same op kind on differently sharded inputs
// gets its own result, and a barrier's direction keeps it from reusing the
// outcome of an identical barrier that lets shardings through.
TEST(ShardingPropagation, EqualOpsWithDifferentShardingsGetTheirOwnResults) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>},
             %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
  %2 = stablehlo.negate %arg2 : tensor<8x8xf32>
  %3 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x8xf32>
  %4 = sdy.propagation_barrier %arg2 allowed_direction=FORWARD : tensor<8x8xf32>
  return %0, %1, %2, %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
)");
  ASSERT_TRUE(m);
  Diagnostics diags;
  ASSERT_TRUE(propagateShardings(*m, {}, diags));
  std::string out = printModule(*m);
  EXPECT_NE(out.find("%0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\", ?}, {?}]>]>}"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {\"b\", ?}]>]>}"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%2 = stablehlo.negate %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\", ?}, {?}]>]>}"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%3 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x8xf32>"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%4 = sdy.propagation_barrier %arg2 allowed_direction=FORWARD {sdy.sharding"), std::string::npos)
      << out;
}

TEST(ShardingPropagation, SecondRunChangesNothing) {
  std::unique_ptr<Module> m = parse(chain(10));
  Diagnostics diags;
  ASSERT_TRUE(propagateShardings(*m, {}, diags));
  std::string once = printModule(*m);
  PropagationStats stats;
  ASSERT_TRUE(propagateShardings(*m, {}, diags, &stats));
  EXPECT_EQ(stats.updates, 0u);
  EXPECT_EQ(printModule(*m), once);
}

TEST(ShardingPropagation, DifferentMeshesDoNotMix) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @m3 = <["a"=3]>
sdy.mesh @m6 = <["a"=6]>
func.func @f(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {?}]>},
             %arg1: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m6, [{?}, {?}]>}) -> tensor<6x6xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}
)");
  Diagnostics diags;
  PropagationStats stats;
  ASSERT_TRUE(propagateShardings(*m, {}, diags, &stats));
  EXPECT_EQ(stats.updates, 0u);
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

TEST(ShardingPropagation, ConflictingGroupGetsOpenConstraintsAndAWarning) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  sdy.sharding_group %arg0 group_id = 7 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id = 7 : tensor<8x8xf32>
  func.return
}
)");
  Diagnostics diags;
  ASSERT_TRUE(propagateShardings(*m, {}, diags));
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].severity, Severity::Warning);
  EXPECT_NE(diags.all()[0].message.find("groupID: 7"), std::string::npos);
  std::string out = printModule(*m);
  // Both constraints end up equal: the group keeps them in step.
  EXPECT_NE(out.find("sdy.sharding_constraint %arg1 <@mesh, [{\"b\", ?}, {?}]>"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.sharding_constraint %arg0 <@mesh, [{\"b\", ?}, {?}]>"), std::string::npos) << out;
}

TEST(ShardingPropagation, AgreeingGroupMembersShareTheSharding) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
             %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id = 1 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id = 1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  Diagnostics diags;
  ASSERT_TRUE(propagateShardings(*m, {}, diags));
  EXPECT_TRUE(diags.all().empty());
  std::string out = printModule(*m);
  EXPECT_NE(out.find("stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>}"),
            std::string::npos) << out;
  // and the closed sharding reaches %arg1 backwards as an open one.
  EXPECT_NE(out.find("%arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}, {?}]>}"),
            std::string::npos) << out;
}

}  // namespace
}  // namespace autopart
