#include <gtest/gtest.h>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "tests/TestUtil.h"

namespace autopart {
namespace {

const char *kProgram = R"(module {
  func.func @main() -> tensor<2xf32> {
    %0 = stablehlo.constant dense_resource<w0> : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F00000040",
      "odd key": "0x0400000001"
    },
    other: { x: true }
  },
  external_resources: {
    tool: { key: "0x00" }
  }
#-}
)";

TEST(AsmDenseResource, BuiltinBlobsAreKeptByKey) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->resourceBlobs.size(), 2u);
  EXPECT_EQ(m->resourceBlobs[0].first, "w0");
  EXPECT_EQ(m->resourceBlobs[0].second, "0x040000000000803F00000040");
  EXPECT_EQ(m->resourceBlobs[1].first, "odd key");
  EXPECT_EQ(m->resourceBlobs[1].second, "0x0400000001");
}

TEST(AsmDenseResource, PrintingKeepsTheBlockAndReparses) {
  std::unique_ptr<Module> m = testing::parse(kProgram);
  ASSERT_TRUE(m);
  std::string text = printModule(*m);
  EXPECT_NE(text.find("dense_resource<w0>"), std::string::npos);
  EXPECT_NE(text.find("w0: \"0x040000000000803F00000040\""), std::string::npos);
  std::unique_ptr<Module> again = testing::parse(text);
  ASSERT_TRUE(again);
  EXPECT_EQ(printModule(*again), text);
  ASSERT_EQ(again->resourceBlobs.size(), 2u);
}

TEST(AsmDenseResource, AMalformedBlockIsALocatedError) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule("module {\n}\n{-#\n  dialect_resources: {\n    builtin: {\n      w0 \"0x00\"\n"
                                          "    }\n  }\n#-}\n",
                                          "t.mlir", &err);
  EXPECT_FALSE(m);
  EXPECT_EQ(err.line, 6u) << err.full;
  EXPECT_NE(err.full.find("expected ':' in the resource block"), std::string::npos) << err.full;
}

}  // namespace
}  // namespace autopart
