// Options several passes share: one spec wherever they appear.
#include "ir/PassOptionCatalog.h"

#include <gtest/gtest.h>

namespace autopart {
namespace {

TEST(PassOptionCatalogTest, SharedOptionsHaveOneTypeAndHelp) {
  PassOptionSpec dedup = sharedPassOption("dedup-functions-fully");
  EXPECT_EQ(dedup.name, "dedup-functions-fully");
  EXPECT_EQ(dedup.type, "bool");
  EXPECT_FALSE(dedup.help.empty());
  EXPECT_EQ(sharedPassOption("replica-count").type, "int");
}

// Every pass that declares a catalog option declares it as the catalog says.
TEST(PassOptionCatalogTest, RegisteredPassesAgreeWithTheCatalog) {
  size_t shared = 0;
  for (const PassInfo *p : allPasses())
    for (const PassOptionSpec &o : p->options) {
      PassOptionSpec c = sharedPassOption(o.name);
      if (c.help.empty()) continue;
      ++shared;
      EXPECT_EQ(o.type, c.type) << p->name << ": " << o.name;
    }
  EXPECT_GT(shared, 10u);
}

// A name the catalog lacks has no help line: the registry test fails on it.
TEST(PassOptionCatalogTest, UnknownNameHasNoHelp) {
  EXPECT_TRUE(sharedPassOption("no-such-option").help.empty());
}

}  // namespace
}  // namespace autopart
