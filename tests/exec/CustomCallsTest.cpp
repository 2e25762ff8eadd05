#include <gtest/gtest.h>

#include "exec/CustomCalls.h"
#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

TEST(ExecCustomCalls, ArgumentMarkersAreIdentities) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @tt.mark_argument(%a) {api_version = 0 : i32, mhlo.frontend_attributes = {ttcore.argument_type = "input", ttir.name = "x"}} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{replicated}"} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = stablehlo.add %1, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
})");
  ASSERT_TRUE(m);
  OpId f = m->lookupSymbol("main");
  TensorPtr a = randomTensor(m->types, m->type(FuncView{*m, f}.args()[0]), 7);
  Interpreter I(*m);
  TensorPtr r = I.callFunction(f, {a})[0];
  for (int i = 0; i < 2; ++i) EXPECT_EQ(r->data<float>()[i], 2 * a->data<float>()[i]);
  EXPECT_TRUE(isIdentityCustomCall("tt.mark_argument"));
  EXPECT_FALSE(isIdentityCustomCall("tt.scaled_dot_product_attention"));
}

TEST(ExecCustomCalls, AnIdentityMarkerThatChangesTheTypeIsAnError) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main(%a: tensor<2xf32>) -> tensor<1x2xf32> {
  %0 = stablehlo.custom_call @tt.mark_argument(%a) : (tensor<2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
})");
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:2:8");
}

// Not a custom call, but the other missing piece of the shared models:
// `dense_resource` constants (exec/DenseResource.h).
const char *kResources = R"(module {
  func.func @main() -> tensor<2xf32> {
    %0 = stablehlo.constant dense_resource<w0> : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func @elided() -> tensor<2xf32> {
    %1 = stablehlo.constant dense_resource<__elided__> : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func @short() -> tensor<3xf32> {
    %1 = stablehlo.constant dense_resource<w0> : tensor<3xf32>
    return %1 : tensor<3xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F00000040"
    }
  }
#-}
)";

TEST(ExecDenseResource, ConstantsReadTheirBlob) {
  std::unique_ptr<Module> m = testing::parse(kResources);
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {"main", "zeros", 0, {}});
  ASSERT_EQ(r.functions.size(), 1u);
  ASSERT_FALSE(r.functions[0].failed) << r.functions[0].error;
  EXPECT_EQ(r.functions[0].results[0]->data<float>()[0], 1.0f);
  EXPECT_EQ(r.functions[0].results[0]->data<float>()[1], 2.0f);
}

TEST(ExecDenseResource, AMissingOrShortBlobIsALocatedError) {
  std::unique_ptr<Module> m = testing::parse(kResources);
  ASSERT_TRUE(m);
  RunResult r = runModule(*m, {"elided", "zeros", 0, {}});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:7:10");
  EXPECT_NE(r.functions[0].error.find("elided"), std::string::npos);
  r = runModule(*m, {"short", "zeros", 0, {}});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_NE(r.functions[0].error.find("holds 8 bytes, the type needs 12"), std::string::npos) << r.functions[0].error;
}

}  // namespace
}  // namespace autopart::exec
