#include "ir/ShardingWalk.h"

#include "asm/Printer.h"
#include "tests/TestUtil.h"

namespace autopart {
namespace {

constexpr const char *kProgram = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
  %1:2 = stablehlo.custom_call @g(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %1#0 : tensor<8xf32>
}
)";

TEST(ShardingWalkTest, VisitsEveryPlaceInProgramOrder) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  std::vector<std::string> seen;
  forEachSharding(*m, [&](OpId op, const TensorSharding &s) {
    seen.push_back(std::string(m->opName(op)) + " " + s.strBody());
  });
  std::vector<std::string> expected = {
      "func.func <@mesh, [{\"x\"}]>",          "func.func <@mesh, [{\"y\"}]>",
      "sdy.sharding_constraint <@mesh, [{\"y\"}]>", "stablehlo.custom_call <@mesh, [{}]>",
      "stablehlo.custom_call <@mesh, [{\"x\"}]>"};
  EXPECT_EQ(seen, expected);
}

TEST(ShardingWalkTest, RewritesOnlyWhatChanged) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  size_t n = rewriteShardings(*m, [](TensorSharding &s) {
    bool changed = false;
    for (DimSharding &d : s.dims)
      for (AxisRef &a : d.axes)
        if (a.name == "x") {
          a.name = "data";
          changed = true;
        }
    return changed;
  });
  EXPECT_EQ(n, 2u);
  std::string text = printModule(*m);
  EXPECT_NE(text.find("%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"data\"}]>}"), std::string::npos)
      << text;
  EXPECT_NE(text.find("[<@mesh, [{}]>, <@mesh, [{\"data\"}]>]"), std::string::npos) << text;
  EXPECT_NE(text.find("sdy.sharding_constraint %arg0 <@mesh, [{\"y\"}]>"), std::string::npos) << text;
}

TEST(ShardingWalkTest, VisitsTheShardingsOfOneAttribute) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  OpId call = testing::opsNamed(*m, "stablehlo.custom_call")[0];
  std::vector<std::string> seen;
  forEachShardingIn(*m, m->attr(call, "sdy.sharding"), [&](const TensorSharding &s) { seen.push_back(s.strBody()); });
  EXPECT_EQ(seen, (std::vector<std::string>{"<@mesh, [{}]>", "<@mesh, [{\"x\"}]>"}));
  forEachShardingIn(*m, kNoAttr, [&](const TensorSharding &) { ADD_FAILURE(); });
}

}  // namespace
}  // namespace autopart
