#include "api/Program.h"

#include <gtest/gtest.h>

namespace autopart {
namespace {

constexpr const char *kProgram = R"(module {
  sdy.mesh @grid = <["x"=2, "y"=4]>
  func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.add %a, %a : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)";

TEST(ApiProgram, ParseErrorIsLocated) {
  Diagnostics diags;
  EXPECT_EQ(parseProgram({"func.func @main(%a: tensor<8xf32>) {\n  %0 = stablehlo.add %a, \n}", "bad.mlir"}, diags),
            nullptr);
  ASSERT_EQ(diags.all().size(), 1u);
  const Diagnostic &d = diags.all()[0];
  EXPECT_EQ(d.file, "bad.mlir");
  EXPECT_EQ(d.line, 2u);
  EXPECT_EQ(d.col, 24u);
  EXPECT_EQ(d.str(), "bad.mlir:2:24: error: expected ':', found ','");
}

TEST(ApiProgram, MeshFromSpecOrModule) {
  Diagnostics diags;
  std::unique_ptr<Module> m = parseProgram({kProgram, "p.mlir"}, diags);
  ASSERT_TRUE(m) << diags.errorText();
  std::string name;
  std::optional<Mesh> mesh = resolveMesh(*m, "", diags, &name);
  ASSERT_TRUE(mesh);
  EXPECT_EQ(name, "grid");
  EXPECT_EQ(mesh->numDevices(), 8);
  mesh = resolveMesh(*m, "data=8,model=4", diags, &name);
  ASSERT_TRUE(mesh);
  EXPECT_EQ(mesh->str(), "<[\"data\"=8, \"model\"=4]>");
  EXPECT_FALSE(resolveMesh(*m, "data=x", diags, &name));
  EXPECT_EQ(diags.errorText(), "error: --mesh: mesh axis 'data' needs a positive size, got 'x'");
}

TEST(ApiProgram, NoMeshAndNoEntryAreErrors) {
  Diagnostics diags;
  std::unique_ptr<Module> m = parseProgram({"func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                                            "  return %a : tensor<2xf32>\n}\n",
                                            "p.mlir"},
                                           diags);
  ASSERT_TRUE(m) << diags.errorText();
  std::string name;
  EXPECT_FALSE(resolveMesh(*m, "", diags, &name));
  EXPECT_EQ(findPlannableEntry(*m, "g", diags), kNone);
  EXPECT_EQ(diags.errorText(),
            "error: no mesh: pass --mesh (e.g. data=8,model=4) or put an sdy.mesh in the input\n"
            "error: no entry function named 'g' with a body");
  EXPECT_NE(findPlannableEntry(*m, "", diags), kNone);
}

}  // namespace
}  // namespace autopart
