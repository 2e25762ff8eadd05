// Reading a pass's option string as autopart-opt gets it from the command line.
#include <gtest/gtest.h>

#include "ir/Pass.h"

namespace autopart {
namespace {

TEST(PassOptionsTest, SpacesAndCommasSeparateOptions) {
  PassOptions o = PassOptions::parse("propagation-strategy=basic,keep-sharding-rules=true debug");
  EXPECT_EQ(o.getString("propagation-strategy", ""), "basic");
  EXPECT_TRUE(o.getBool("keep-sharding-rules", false));
  EXPECT_EQ(o.values.count("debug"), 1u);
}

// A quoted value is one option (as MLIR reads `filter='a=0, b=1'`), without
// its quotes; braces and brackets still group.
TEST(PassOptionsTest, QuotesGroupAValue) {
  PassOptions o = PassOptions::parse("filter='selectLow=0, selectHigh=2' other=\"a b\" list=[1, 2]");
  EXPECT_EQ(o.getString("filter", ""), "selectLow=0, selectHigh=2");
  EXPECT_EQ(o.getString("other", ""), "a b");
  EXPECT_EQ(o.getString("list", ""), "[1, 2]");
  EXPECT_EQ(o.values.size(), 3u);
}

}  // namespace
}  // namespace autopart
