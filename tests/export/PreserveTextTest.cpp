// Text-preserving output: only the plan's attribute entries change, the rest
// of the input stays byte for byte, and anything else a caller changed makes
// it refuse (the caller then re-prints).
#include "export/PreserveText.h"

#include <gtest/gtest.h>

#include "tests/TestUtil.h"

namespace autopart {
namespace {

TensorSharding rowsOn(const std::string &axis, size_t rank) {
  TensorSharding s = TensorSharding::closed("mesh", rank);
  s.dims[0].axes.push_back(AxisRef{axis});
  return s;
}

const char *kAddWithRule = R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";

// The rule's `->` must not be taken for the end of a `<...>` when the
// dictionary is split into entries.
TEST(PreserveText, ReplacesOneEntryAndKeepsTheOthersVerbatim) {
  auto m = testing::parse(kAddWithRule);
  ASSERT_TRUE(m);
  OpId add = testing::opsNamed(*m, "stablehlo.add").at(0);
  m->setAttr(add, "sdy.sharding", m->attrs.shardingPerValue({rowsOn("x", 1)}));
  std::string why;
  std::optional<std::string> out = preserveText(*m, &why);
  ASSERT_TRUE(out) << why;
  std::string expected = kAddWithRule;
  std::string before = "#sdy.sharding_per_value<[<@mesh, [{}]>]>";
  expected.replace(expected.find(before), before.size(), "#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>");
  EXPECT_EQ(*out, expected);
}

TEST(PreserveText, RemovingAnEntryKeepsTheRest) {
  auto m = testing::parse(kAddWithRule);
  ASSERT_TRUE(m);
  OpId add = testing::opsNamed(*m, "stablehlo.add").at(0);
  m->removeAttr(add, "sdy.sharding");
  std::optional<std::string> out = preserveText(*m, nullptr);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("%0 = stablehlo.add %a, %a {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} :"),
            std::string::npos)
      << *out;
}

TEST(PreserveText, UnchangedModuleIsItsInput) {
  auto m = testing::parse(kAddWithRule);
  ASSERT_TRUE(m);
  std::optional<std::string> out = preserveText(*m, nullptr);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, kAddWithRule);
}

TEST(PreserveText, RefusesOtherChanges) {
  auto m = testing::parse(kAddWithRule);
  ASSERT_TRUE(m);
  OpId add = testing::opsNamed(*m, "stablehlo.add").at(0);
  m->setAttr(add, "mhlo.frontend_attributes", m->attrs.unit());
  std::string why;
  EXPECT_FALSE(preserveText(*m, &why));
  EXPECT_NE(why.find("attributes changed"), std::string::npos) << why;

  auto m2 = testing::parse(kAddWithRule);
  ASSERT_TRUE(m2);
  m2->setOperand(testing::opsNamed(*m2, "stablehlo.add").at(0), 1, m2->result(testing::opsNamed(*m2, "stablehlo.add").at(0)));
  EXPECT_FALSE(preserveText(*m2, &why));
  EXPECT_NE(why.find("operands changed"), std::string::npos) << why;
}

}  // namespace
}  // namespace autopart
