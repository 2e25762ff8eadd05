// The boundary-sharding helpers the call passes share: setting a value's
// sharding on a function argument or one result of a multi-result call, and
// reading a function's argument / result shardings as complete lists.
#include <gtest/gtest.h>

#include "export/FuncShardings.h"
#include "ir/ValueSharding.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using testing::opsNamed;
using testing::parse;

const char *kProgram = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func private @f(%a: tensor<8xf32>, %b: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8xf32>, tensor<4x4xf32>) {
  return %a, %b : tensor<8xf32>, tensor<4x4xf32>
}
func.func @main(%a: tensor<8xf32>, %b: tensor<4x4xf32>) -> tensor<8xf32> {
  %0:2 = call @f(%a, %b) : (tensor<8xf32>, tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>)
  %1 = stablehlo.negate %0#0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)";

TensorSharding onX(size_t rank) {
  TensorSharding s = TensorSharding::closed("mesh", rank);
  s.dims[0].axes.push_back(AxisRef{"x"});
  return s;
}

TEST(FuncShardings, SetsOneResultOfACallAndOpensTheOthers) {
  auto m = parse(kProgram);
  OpId call = opsNamed(*m, "func.call").front();
  ASSERT_TRUE(setValueSharding(*m, m->result(call, 1), onX(2)));
  const TensorSharding *first = valueSharding(*m, m->result(call, 0));
  const TensorSharding *second = valueSharding(*m, m->result(call, 1));
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->strBody(), "<@mesh, [{?}]>");
  EXPECT_EQ(second->strBody(), "<@mesh, [{\"x\"}, {}]>");
}

TEST(FuncShardings, SetsAFunctionArgument) {
  auto m = parse(kProgram);
  OpId f = m->lookupSymbol("f");
  ASSERT_TRUE(setValueSharding(*m, FuncView{*m, f}.args()[0], onX(1)));
  const TensorSharding *s = funcArgSharding(*m, f, 0);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->strBody(), "<@mesh, [{\"x\"}]>");
}

TEST(FuncShardings, ListsAreCompletedOnTheFirstMeshOrAbsent) {
  auto m = parse(kProgram);
  OpId f = m->lookupSymbol("f");
  std::optional<std::vector<TensorSharding>> args = funcArgShardings(*m, f);
  ASSERT_TRUE(args.has_value());
  ASSERT_EQ(args->size(), 2u);
  EXPECT_EQ((*args)[0].strBody(), "<@mesh, [{?}]>");
  EXPECT_EQ((*args)[1].strBody(), "<@mesh, [{\"y\"}, {}]>");
  EXPECT_FALSE(funcResultShardings(*m, f).has_value());
}

TEST(FuncShardings, ANonFunctionBlockArgumentIsRefused) {
  auto m = parse(R"(
func.func @main(%a: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
)");
  std::vector<OpId> reduces = opsNamed(*m, "stablehlo.reduce");
  ASSERT_EQ(reduces.size(), 1u);
  OpId reduce = reduces.front();
  ASSERT_EQ(m->numRegions(reduce), 1u);
  BlockId body = m->regions[m->region(reduce, 0)].blocks.front();
  EXPECT_FALSE(setValueSharding(*m, m->blocks[body].args[0], TensorSharding::closed("mesh", 0)));
}

}  // namespace
}  // namespace autopart
