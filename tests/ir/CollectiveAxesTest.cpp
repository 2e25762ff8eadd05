// The collective axes text read into its three shapes and written back in
// Shardy's spelling.
#include <gtest/gtest.h>

#include "ir/CollectiveAxes.h"

namespace autopart {
namespace {

TEST(CollectiveAxes, PerDimensionWithReductionRoundTrips) {
  std::optional<CollectiveAxes> axes = parseCollectiveAxes(R"(max [{"x", "y":(2)4},{}])");
  ASSERT_TRUE(axes);
  EXPECT_TRUE(axes->isPerDim());
  EXPECT_FALSE(axes->isAllToAll());
  EXPECT_EQ(axes->reduction, "max");
  EXPECT_EQ(axes->reductionOp(), "max");
  ASSERT_EQ(axes->perDim.size(), 2u);
  ASSERT_EQ(axes->perDim[0].size(), 2u);
  EXPECT_EQ(axes->perDim[0][1].name, "y");
  EXPECT_EQ(axes->perDim[0][1].preSize, 2);
  EXPECT_EQ(axes->perDim[0][1].subSize, 4);
  EXPECT_FALSE(axes->allEmpty());
  EXPECT_EQ(axes->str(), R"(max [{"x", "y":(2)4}, {}])");
}

TEST(CollectiveAxes, EmptyPerDimensionListsMoveNothing) {
  std::optional<CollectiveAxes> axes = parseCollectiveAxes("[{}, {}]");
  ASSERT_TRUE(axes);
  EXPECT_TRUE(axes->reduction.empty());
  EXPECT_EQ(axes->reductionOp(), "sum");
  EXPECT_TRUE(axes->allEmpty());
}

TEST(CollectiveAxes, FlatListRoundTrips) {
  std::optional<CollectiveAxes> axes = parseCollectiveAxes(R"({"x", "r":(1)2})");
  ASSERT_TRUE(axes);
  EXPECT_TRUE(axes->isFlat());
  EXPECT_FALSE(axes->isPerDim());
  EXPECT_EQ(axes->axes.size(), 2u);
  EXPECT_EQ(axes->str(), R"({"x", "r":(1)2})");
  std::optional<CollectiveAxes> none = parseCollectiveAxes("min {}");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->axes.empty());
  EXPECT_EQ(none->str(), "min {}");
}

TEST(CollectiveAxes, AllToAllParamsRoundTrip) {
  std::optional<CollectiveAxes> axes = parseCollectiveAxes(R"([{"x"}: 0->2, {"y", "z"}: 1->3])");
  ASSERT_TRUE(axes);
  EXPECT_TRUE(axes->isAllToAll());
  EXPECT_FALSE(axes->isPerDim());
  ASSERT_EQ(axes->params.size(), 2u);
  EXPECT_EQ(axes->params[1].srcDim, 1);
  EXPECT_EQ(axes->params[1].tgtDim, 3);
  EXPECT_EQ(axes->str(), R"([{"x"}: 0->2, {"y", "z"}: 1->3])");
  // Negative dimensions are read, for the verifier to report.
  std::optional<CollectiveAxes> negative = parseCollectiveAxes(R"([{"y"}: 2->-1])");
  ASSERT_TRUE(negative);
  EXPECT_EQ(negative->params[0].tgtDim, -1);
}

TEST(CollectiveAxes, EmptyBracketsAreBothShapesAndBuiltListsPrint) {
  std::optional<CollectiveAxes> axes = parseCollectiveAxes("[]");
  ASSERT_TRUE(axes);
  EXPECT_TRUE(axes->isPerDim());
  EXPECT_TRUE(axes->isAllToAll());
  EXPECT_EQ(CollectiveAxes::ofDims("", {{AxisRef{"x"}}, {}}).str(), R"([{"x"}, {}])");
  EXPECT_EQ(CollectiveAxes::ofParams({{{AxisRef{"x"}}, 0, 1}}).str(), R"([{"x"}: 0->1])");
}

TEST(CollectiveAxes, MalformedTextIsRejected) {
  EXPECT_FALSE(parseCollectiveAxes(R"([{"x"})"));
  EXPECT_FALSE(parseCollectiveAxes(R"({"x")"));
  EXPECT_FALSE(parseCollectiveAxes(R"({"x"} extra)"));
  EXPECT_FALSE(parseCollectiveAxes(R"([{"x"}: 0-2])"));
  EXPECT_FALSE(parseCollectiveAxes(R"([{"x"}: 99999999999999999999->1])"));
  // Dimensions and all-to-all parameters do not mix.
  EXPECT_FALSE(parseCollectiveAxes(R"([{"x"}: 1->0, {"y"}])"));
}

}  // namespace
}  // namespace autopart
