// Symbol names that are not bare identifiers (`@"<lambda>"`, JAX writes them
// often) are printed quoted wherever they appear (func, module, sdy.mesh and
// mesh references), so the output reads back; calls resolve them.
#include <gtest/gtest.h>

#include "asm/Parser.h"
#include "asm/Printer.h"

using namespace autopart;

namespace {

struct Printed {
  std::string pretty;
};

Printed print(const std::string &text) {
  ParseError err;
  auto m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  if (!m) return {};
  return {printModule(*m)};
}

TEST(SymbolNameTest, QuotedFunctionNamePrintsQuoted) {
  Printed p = print(
      "func.func public @main(%a: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = func.call @\"<lambda>\"(%a) : (tensor<f32>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n}\n"
      "func.func private @\"<lambda>\"(%a: tensor<f32>) -> tensor<f32> {\n"
      "  return %a : tensor<f32>\n}\n");
  EXPECT_NE(p.pretty.find("func.func private @\"<lambda>\"("), std::string::npos) << p.pretty;
  EXPECT_NE(p.pretty.find("call @\"<lambda>\"(%arg0)"), std::string::npos) << p.pretty;
  EXPECT_EQ(print(p.pretty).pretty, p.pretty);
}

TEST(SymbolNameTest, BareSymbolNamesStayBare) {
  Printed p = print("module @jit_f {\n  func.func @\"main\"() {\n    return\n  }\n}\n");
  EXPECT_NE(p.pretty.find("module @jit_f {"), std::string::npos) << p.pretty;
  EXPECT_NE(p.pretty.find("func.func @main()"), std::string::npos) << p.pretty;
}

TEST(SymbolNameTest, QuotedModuleNamePrintsQuoted) {
  Printed p = print("module @\"jit f-1\" {\n}\n");
  EXPECT_NE(p.pretty.find("module @\"jit f-1\""), std::string::npos) << p.pretty;
  EXPECT_EQ(print(p.pretty).pretty, p.pretty);
}

TEST(SymbolNameTest, CallToQuotedNameResolves) {
  ParseError err;
  auto m = parseModule(
      "func.func @main() {\n  func.call @\"a-b\"() : () -> ()\n  return\n}\n"
      "func.func private @\"a-b\"() {\n  return\n}\n",
      "t.mlir", &err);
  ASSERT_TRUE(m) << err.full;
  OpId call = kNone;
  for (OpId op = 0; op < m->ops.size(); ++op)
    if (m->isa(op, "func.call")) call = op;
  ASSERT_NE(call, kNone);
  OpId callee = m->lookupFunc(m->attr(call, "callee"));
  ASSERT_NE(callee, kNone);
  EXPECT_EQ(m->attrs.stringValue(m->attr(callee, "sym_name")), "a-b");
}

TEST(SymbolNameTest, MeshNamesAndReferencesPrintQuoted) {
  Printed p = print(
      "sdy.mesh @\"mesh-1\" = <[\"x\"=2]>\n"
      "func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@\"mesh-1\", [{\"x\"}]>}) -> tensor<8xf32> {\n"
      "  %0 = sdy.sharding_constraint %a <@\"mesh-1\", [{}]> : tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n}\n");
  EXPECT_NE(p.pretty.find("sdy.mesh @\"mesh-1\" = <[\"x\"=2]>"), std::string::npos) << p.pretty;
  EXPECT_NE(p.pretty.find("#sdy.sharding<@\"mesh-1\", [{\"x\"}]>"), std::string::npos) << p.pretty;
  EXPECT_NE(p.pretty.find("sdy.sharding_constraint %arg0 <@\"mesh-1\", [{}]>"), std::string::npos) << p.pretty;
  EXPECT_EQ(print(p.pretty).pretty, p.pretty);
}

TEST(SymbolNameTest, MeshNameStartingWithDigitIsQuoted) {
  Printed p = print("sdy.mesh @0m = <[\"y\"=2]>\n");
  EXPECT_NE(p.pretty.find("sdy.mesh @\"0m\" = <[\"y\"=2]>"), std::string::npos) << p.pretty;
  EXPECT_EQ(print(p.pretty).pretty, p.pretty);
}

}  // namespace
