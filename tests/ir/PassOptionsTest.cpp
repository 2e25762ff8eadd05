// Reading a pass's option string as autopart-opt gets it from the command line.
#include <gtest/gtest.h>

#include <set>

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

PassInfo passWith(std::vector<PassOptionSpec> options) {
  return PassInfo{"test-pass", "", nullptr, std::move(options)};
}

std::string errorsOf(const PassInfo &pass, const std::string &text) {
  Diagnostics diags;
  bool ok = checkPassOptions(pass, PassOptions::parse(text), diags);
  std::string out;
  for (const Diagnostic &d : diags.all()) out += d.message + "\n";
  EXPECT_EQ(ok, out.empty()) << text;
  return out;
}

TEST(CheckPassOptionsTest, DeclaredOptionsOfTheRightTypePass) {
  PassInfo p = passWith({{"full", "bool", ""}, {"count", "int", ""}, {"policy", "a|b-c", ""}, {"dir", "string", ""}});
  EXPECT_EQ(errorsOf(p, "full=false count=-3 policy=b-c dir=x/y"), "");
  EXPECT_EQ(errorsOf(p, "full"), "");  // a bare bool is true, as in MLIR
  EXPECT_EQ(errorsOf(p, ""), "");
}

// A misspelt option would otherwise run the pass at its default without a word.
TEST(CheckPassOptionsTest, UnknownOptionNamesWhatThePassTakes) {
  EXPECT_EQ(errorsOf(passWith({{"enable-full-version", "bool", ""}}), "enable-full-vesion=false"),
            "test-pass: unknown option 'enable-full-vesion'; it takes enable-full-version\n");
  EXPECT_EQ(errorsOf(passWith({}), "x=1"), "test-pass: unknown option 'x' (the pass takes no options)\n");
}

TEST(CheckPassOptionsTest, ValuesTheTypeRejects) {
  PassInfo p = passWith({{"full", "bool", ""}, {"count", "int", ""}, {"policy", "a|b", ""}});
  EXPECT_EQ(errorsOf(p, "full=yes"), "test-pass: option 'full' takes true or false, not 'yes'\n");
  EXPECT_EQ(errorsOf(p, "count=2x"), "test-pass: option 'count' takes an integer, not '2x'\n");
  EXPECT_EQ(errorsOf(p, "count="), "test-pass: option 'count' takes an integer, not ''\n");
  EXPECT_EQ(errorsOf(p, "policy=ab"), "test-pass: option 'policy' takes one of a|b, not 'ab'\n");
}

// `filter=dot,pad` reaches the pass as filter=dot plus the bare word `pad`:
// a pass with a list option takes bare words, other passes do not.
TEST(CheckPassOptionsTest, BareWordsBelongToAListOption) {
  EXPECT_EQ(errorsOf(passWith({{"filter", "list", ""}}), "filter=dot,pad,reshard"), "");
  EXPECT_EQ(errorsOf(passWith({{"filter", "list", ""}}), "filter=dot,pad=1"),
            "test-pass: unknown option 'pad'; it takes filter\n");
  EXPECT_EQ(errorsOf(passWith({{"full", "bool", ""}}), "full=true,pad"),
            "test-pass: unknown option 'pad'; it takes full\n");
}

// Every registered pass's options are well formed: a known type, no name twice.
TEST(CheckPassOptionsTest, RegisteredDeclarationsAreWellFormed) {
  size_t declared = 0;
  for (const PassInfo *p : allPasses()) {
    std::set<std::string> names;
    for (const PassOptionSpec &o : p->options) {
      ++declared;
      EXPECT_TRUE(names.insert(o.name).second) << p->name << " declares " << o.name << " twice";
      bool known = o.type == "bool" || o.type == "int" || o.type == "string" || o.type == "list" ||
                   o.type.find('|') != std::string::npos;
      EXPECT_TRUE(known) << p->name << ": " << o.name << " has type " << o.type;
      EXPECT_FALSE(o.help.empty()) << p->name << ": " << o.name;
    }
  }
  EXPECT_GT(declared, 20u);
}

}  // namespace
}  // namespace autopart
