// Shardy's diagnostics for malformed shardings and meshes: the first error
// and the chain of constructs it is inside, each with its line.
#include <gtest/gtest.h>

#include "asm/Parser.h"

namespace autopart {
namespace {

// Every parse error of `text`, "line: message" per line; "" when it parses.
std::string parseErrors(const std::string &text) {
  ParseError err;
  if (parseModule(text, "t.mlir", &err)) return "";
  std::string out = std::to_string(err.line) + ": " + err.message + "\n";
  for (const ParseError &c : err.context) out += std::to_string(c.line) + ": " + c.message + "\n";
  return out;
}

std::string argSharding(const std::string &sharding) {
  return "sdy.mesh @mesh = <[\"a\"=2, \"b\"=4]>\n"
         "func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, " +
         sharding + ">}) -> tensor<8x8xf32> {\n  return %arg0 : tensor<8x8xf32>\n}";
}

TEST(ShardingParserTest, Priorities) {
  EXPECT_EQ(parseErrors(argSharding(R"([{"a"}p0, {"b"}p12])")), "");
  EXPECT_EQ(parseErrors(argSharding(R"([{"a"}p01, {}])")),
            "2: priorities with leading zeros are not allowed, got: p01\n"
            "2: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
            "`::llvm::ArrayRef<DimensionShardingAttr>`\n");
  EXPECT_EQ(parseErrors(argSharding(R"([{"a"}pX, {}])")),
            "2: expecting priority in format 'p<number>', got: pX\n"
            "2: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
            "`::llvm::ArrayRef<DimensionShardingAttr>`\n");
}

TEST(ShardingParserTest, NamedAxisLists) {
  EXPECT_EQ(parseErrors(argSharding(R"([{}, {}], replicated={"a"}, unreduced={"b"})")), "");
  EXPECT_EQ(parseErrors(argSharding(R"([{}, {}], unreduced={"b"}, replicated={"a"})")), "");
  EXPECT_EQ(parseErrors(argSharding(R"([{}, {}], unreduced={"b"}, unreduced={"a"})")),
            "2: failed to parse Sdy_TensorSharding, expected valid named axis list after comma\n");
  EXPECT_EQ(parseErrors(argSharding(R"([{}, {}], replicated={"a", b})")),
            "2: expected string literal\n"
            "2: failed to parse Sdy_AxisRef parameter 'name' which is to be a `::llvm::StringRef`\n"
            "2: failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`\n"
            "2: failed to parse Sdy_TensorSharding parameter 'replicated_axes' which is to be a "
            "`::llvm::ArrayRef<AxisRefAttr>`\n");
}

TEST(ShardingParserTest, ShardingPerValueAddsItsOwnContext) {
  std::string errors = parseErrors(R"(sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], replicated>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  EXPECT_NE(errors.find("3: failed to parse Sdy_TensorShardingPerValue parameter 'shardings'"),
            std::string::npos)
      << errors;
}

TEST(ShardingParserTest, Meshes) {
  EXPECT_EQ(parseErrors(R"(sdy.mesh @m = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>)"), "");
  EXPECT_EQ(parseErrors(R"(sdy.mesh @m = <["a"=2, "a"=2]>)"),
            "1: custom op 'sdy.mesh' duplicate axis name: \"a\"\n");
  EXPECT_EQ(parseErrors(R"(sdy.mesh @m = <["a"=2], device_ids=[2, 0]>)"),
            "1: custom op 'sdy.mesh' sorted device ids must be iota(product(axes)), got: 0, 2\n");
  EXPECT_EQ(parseErrors(R"(sdy.mesh @m = <["a"=0]>)"),
            "1: custom op 'sdy.mesh' axis size must be at least 1, got: 0\n"
            "1: custom op 'sdy.mesh' failed to parse Sdy_Mesh parameter 'axes' which is to be a "
            "`::llvm::ArrayRef<MeshAxisAttr>`\n");
}

}  // namespace
}  // namespace autopart
