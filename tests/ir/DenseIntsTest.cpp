// AttrTable::denseInts: the one reader of integer `dense<...>` attributes
// (rules' reduce_window padding, the parser's upgrade of old i64 lists, a
// collective's replica groups).
#include "ir/Attributes.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

TEST(DenseIntsTest, ListsSplatsBooleansAndHex) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @f() -> () {
  %a = stablehlo.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi64>
  %b = stablehlo.constant dense<7> : tensor<3xi32>
  %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %d = stablehlo.constant dense<"0x01000000FEFFFFFF"> : tensor<2xi32>
  return
}
)");
  ASSERT_TRUE(m);
  std::vector<std::vector<int64_t>> got;
  m->walk(m->functions()[0], [&](OpId op) {
    if (m->isa(op, "stablehlo.constant")) got.push_back(m->attrs.denseInts(m->attr(op, "value")));
  });
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], (std::vector<int64_t>{1, -2, 3, 4}));
  EXPECT_EQ(got[1], (std::vector<int64_t>{7, 7, 7}));
  EXPECT_EQ(got[2], (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(got[3], (std::vector<int64_t>{1, -2}));
  EXPECT_EQ(m->attrs.denseInts(kNoAttr), std::vector<int64_t>{});
}

}  // namespace
}  // namespace autopart
