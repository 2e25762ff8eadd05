// Where each kind of value keeps its sharding, on one small program.
#include "ir/ValueSharding.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

constexpr const char *kProgram = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"y"}]> : tensor<8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"y"}]>] manual_axes={"x"} (%arg2: tensor<4xf32>) {
    sdy.return %arg2 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %4 = sdy.named_computation<"g">(%3) in_shardings=[<@mesh, [{"y"}]>] out_shardings=[<@mesh, [{"x"}]>] (%arg3: tensor<8xf32>) {
    sdy.return %arg3 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %5 = stablehlo.while(%i = %4) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %i : tensor<8xf32>
  }
  return %5 : tensor<8xf32>
}
)";

std::string shardingOf(const Module &m, ValueId v) {
  const TensorSharding *s = valueSharding(m, v);
  return s ? s->strBody() : "none";
}

TEST(ValueShardingTest, ReadsEachPlaceAValueKeepsItsSharding) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  FuncView f{*m, m->functions()[0]};
  EXPECT_EQ(shardingOf(*m, f.args()[0]), R"(<@mesh, [{"x", ?}]>)");
  EXPECT_EQ(shardingOf(*m, f.args()[1]), "none");
  auto result = [&](const char *name) { return m->result(testing::opsNamed(*m, name)[0], 0); };
  EXPECT_EQ(shardingOf(*m, result("sdy.all_gather")), R"(<@mesh, [{}]>)");
  EXPECT_EQ(shardingOf(*m, result("sdy.reshard")), R"(<@mesh, [{"y"}]>)");
  EXPECT_EQ(shardingOf(*m, result("stablehlo.abs")), R"(<@mesh, [{"x"}]>)");
  EXPECT_EQ(shardingOf(*m, result("sdy.manual_computation")), R"(<@mesh, [{"y"}]>)");
  EXPECT_EQ(shardingOf(*m, result("sdy.named_computation")), R"(<@mesh, [{"x"}]>)");
  EXPECT_EQ(shardingOf(*m, result("stablehlo.while")), R"(<@mesh, [{"y"}]>)");
  EXPECT_EQ(shardingOf(*m, result("stablehlo.constant")), "none");
}

TEST(ValueShardingTest, BlockArgumentsOfComputationsAndLoops) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  auto bodyArg = [&](const char *name, uint32_t region) {
    OpId op = testing::opsNamed(*m, name)[0];
    return m->blocks[m->regions[m->region(op, region)].blocks[0]].args[0];
  };
  // The manual body sees local shapes: its global in_sharding is not its own.
  EXPECT_EQ(shardingOf(*m, bodyArg("sdy.manual_computation", 0)), "none");
  EXPECT_EQ(shardingOf(*m, bodyArg("sdy.named_computation", 0)), R"(<@mesh, [{"y"}]>)");
  // Both regions of a loop carry what its results hold.
  EXPECT_EQ(shardingOf(*m, bodyArg("stablehlo.while", 0)), R"(<@mesh, [{"y"}]>)");
  EXPECT_EQ(shardingOf(*m, bodyArg("stablehlo.while", 1)), R"(<@mesh, [{"y"}]>)");
}

TEST(ValueShardingTest, ManualAxesOfAManualComputation) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y", "x"}]>] out_shardings=[<@mesh, [{"y", "x"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    %1 = stablehlo.abs %a : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(m);
  OpId manual = kNone, abs = kNone;
  m->walk(m->functions()[0], [&](OpId op) {
    if (m->isa(op, "sdy.manual_computation")) manual = op;
    if (m->isa(op, "stablehlo.abs")) abs = op;
  });
  EXPECT_EQ(manualAxesOf(*m, manual), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(manualAxesOf(*m, abs).empty());
}

}  // namespace
}  // namespace autopart
