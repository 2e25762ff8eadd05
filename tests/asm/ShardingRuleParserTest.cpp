// The sharding-rule parser: what it reads into the rule, and the errors of a
// malformed rule, Shardy's innermost first and then one per enclosing
// construct.
#include "asm/Parser.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

std::string program(const std::string &rule) {
  return "func.func @f(%arg0: tensor<2x4xf32>) -> tensor<8xf32> {\n"
         "  %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<" +
         rule +
         ">} : (tensor<2x4xf32>) -> tensor<8xf32>\n"
         "  return %0 : tensor<8xf32>\n}";
}

// Every error of parsing `rule`, one per line, "" when it parses.
std::string parseErrors(const std::string &rule) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(program(rule), "t.mlir", &err);
  if (m) return "";
  std::string out = err.message;
  for (const ParseError &c : err.context) out += "\n" + c.message;
  return out;
}

// The rule of the reshape in `program(rule)`.
OpShardingRule parsedRule(const std::string &rule) {
  std::unique_ptr<Module> m = testing::parse(program(rule));
  if (!m) return {};
  std::vector<OpId> ops = testing::opsNamed(*m, "stablehlo.reshape");
  AttrId a = m->attr(ops.at(0), "sdy.sharding_rule");
  EXPECT_EQ(m->attrs.kind(a), AttrKind::ShardingRule);
  return *m->attrs.get(a).rule;
}

TEST(ShardingRuleParserTest, ReadsFactorsAndSpecialLists) {
  OpShardingRule r = parsedRule(
      "([i, j])->([ij]) {i=2, j=4} reduction={i} need_replication={j} blocked_propagation={i}, "
      "custom");
  EXPECT_EQ(r.factorSizes, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(r.operands, (std::vector<OpShardingRule::TensorFactors>{{{0}, {1}}}));
  EXPECT_EQ(r.results, (std::vector<OpShardingRule::TensorFactors>{{{0, 1}}}));
  EXPECT_EQ(r.reductionFactors, (std::vector<int32_t>{0}));
  EXPECT_EQ(r.needReplicationFactors, (std::vector<int32_t>{1}));
  EXPECT_EQ(r.blockedPropagationFactors, (std::vector<int32_t>{0}));
  EXPECT_TRUE(r.isCustom);
  // `z_1` is the factor after `z`; a dimension without factors is kept for
  // the verifier to reject.
  r = parsedRule("([z_1, z_2z])->([i,])");
  EXPECT_EQ(r.operands, (std::vector<OpShardingRule::TensorFactors>{{{18}, {19, 17}}}));
  EXPECT_EQ(r.results, (std::vector<OpShardingRule::TensorFactors>{{{0}, {}}}));
}

TEST(ShardingRuleParserTest, ReportsSymbolErrorsInsideTheirMapping) {
  EXPECT_EQ(parseErrors("([z_1k, i_1])->([i]) {i=2}"),
            "expecting symbol from 'i' to 'z'. Received: '_'\n"
            "failed to parse Sdy_TensorMapping parameter 'dim_mappings' which is to be a "
            "`::llvm::ArrayRef<DimMappingAttr>`\n"
            "failed to parse Sdy_OpShardingRule parameter 'operand_mappings' which is to be a "
            "`::llvm::ArrayRef<TensorMappingAttr>`");
  EXPECT_EQ(parseErrors("([i])->([j, z_07]) {i=2}"),
            "expecting positive integer without leading zeros. Received: '07'\n"
            "failed to parse Sdy_TensorMapping parameter 'dim_mappings' which is to be a "
            "`::llvm::ArrayRef<DimMappingAttr>`\n"
            "failed to parse Sdy_OpShardingRule parameter 'result_mappings' which is to be a "
            "`::llvm::ArrayRef<TensorMappingAttr>`");
  // A malformed bracket is the mapping's own error, outside its dimensions.
  EXPECT_EQ(parseErrors("([i, j])->([i j]) {i=2, j=4}"),
            "expected ']', found 'j'\n"
            "failed to parse Sdy_OpShardingRule parameter 'result_mappings' which is to be a "
            "`::llvm::ArrayRef<TensorMappingAttr>`");
}

TEST(ShardingRuleParserTest, FactorSizesComeInIndexOrder) {
  EXPECT_EQ(parseErrors("([i, k])->([ik]) {i=2, k=4}"),
            "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. {i=#, j=#, "
            "...}). Expecting factor index symbol 'j', received: 'k'");
  EXPECT_EQ(parseErrors("([i, j])->([ij]) {i=2, jk=4}"), "expecting single factor symbol: k");
  // An index past 2^63-1 is reported beside whatever fails after it.
  EXPECT_EQ(parseErrors("([i, z_9999999999999999999])->([i]) {i=2, z_9999999999999999999=4}"),
            "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. {i=#, j=#, "
            "...}). Expecting factor index symbol 'j', received: 'z_9999999999999999999'\n"
            "expecting symbol index <=2^63-1. Received: '9999999999999999999'");
}

TEST(ShardingRuleParserTest, SpecialListsInTheirOrder) {
  EXPECT_EQ(parseErrors("([i, j])->([ij]) {i=2, j=4} need_replication={i} reduction={j}"),
            "expected '>', found 'r'");
  EXPECT_EQ(parseErrors("([i, j])->([ij]) {i=2, j=4} reduction={a}"),
            "expecting symbol from 'i' to 'z'. Received: 'a'");
  EXPECT_EQ(parseErrors("([i, j])->([ij]) {i=2, j=4}, custom_rule"), "expected 'custom'");
  EXPECT_EQ(parseErrors("()->([ij]) {i=2, j=4}"),
            "expected '[', found ')'\n"
            "failed to parse Sdy_OpShardingRule parameter 'operand_mappings' which is to be a "
            "`::llvm::ArrayRef<TensorMappingAttr>`");
}

}  // namespace
}  // namespace autopart
