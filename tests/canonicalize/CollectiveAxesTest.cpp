// The collective axes text read and written back in Shardy's spelling.
#include <gtest/gtest.h>

#include "canonicalize/CollectiveAxes.h"

namespace autopart::canonicalize {
namespace {

TEST(CollectiveAxes, PerDimensionWithReductionRoundTrips) {
  std::optional<PerDimAxes> axes = parsePerDimAxes(R"(max [{"x", "y":(2)4},{}])");
  ASSERT_TRUE(axes);
  EXPECT_EQ(axes->reduction, "max");
  ASSERT_EQ(axes->dims.size(), 2u);
  ASSERT_EQ(axes->dims[0].size(), 2u);
  EXPECT_EQ(axes->dims[0][1].name, "y");
  EXPECT_EQ(axes->dims[0][1].preSize, 2);
  EXPECT_EQ(axes->dims[0][1].subSize, 4);
  EXPECT_FALSE(axes->allEmpty());
  EXPECT_EQ(printPerDimAxes(*axes), R"(max [{"x", "y":(2)4}, {}])");
}

TEST(CollectiveAxes, EmptyPerDimensionListsMoveNothing) {
  std::optional<PerDimAxes> axes = parsePerDimAxes("[{}, {}]");
  ASSERT_TRUE(axes);
  EXPECT_TRUE(axes->reduction.empty());
  EXPECT_TRUE(axes->allEmpty());
}

TEST(CollectiveAxes, FlatListRoundTrips) {
  std::optional<FlatAxes> axes = parseFlatAxes(R"({"x", "r":(1)2})");
  ASSERT_TRUE(axes);
  EXPECT_EQ(axes->axes.size(), 2u);
  EXPECT_EQ(printFlatAxes(*axes), R"({"x", "r":(1)2})");
  std::optional<FlatAxes> none = parseFlatAxes("{}");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->axes.empty());
}

TEST(CollectiveAxes, AllToAllParamsRoundTrip) {
  std::optional<AllToAllParams> params = parseAllToAllParams(R"([{"x"}: 0->2, {"y", "z"}: 1->3])");
  ASSERT_TRUE(params);
  ASSERT_EQ(params->size(), 2u);
  EXPECT_EQ((*params)[1].srcDim, 1);
  EXPECT_EQ((*params)[1].tgtDim, 3);
  EXPECT_EQ(printAllToAllParams(*params), R"([{"x"}: 0->2, {"y", "z"}: 1->3])");
}

TEST(CollectiveAxes, MalformedTextIsRejected) {
  EXPECT_FALSE(parsePerDimAxes(R"([{"x"})"));
  EXPECT_FALSE(parsePerDimAxes(R"({"x"})"));
  EXPECT_FALSE(parseFlatAxes(R"({"x"} extra)"));
  EXPECT_FALSE(parseAllToAllParams(R"([{"x"}: 0-2])"));
  EXPECT_FALSE(parseAllToAllParams(R"([{"x"}: 99999999999999999999->1])"));
}

}  // namespace
}  // namespace autopart::canonicalize
