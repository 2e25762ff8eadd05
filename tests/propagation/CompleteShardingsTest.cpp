// Completing a partial plan as XLA does: nothing without shardings, the
// arguments' shardings through ops and loops, user priorities honoured.
#include <gtest/gtest.h>

#include "asm/Printer.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"
#include "propagation/PropagationPipeline.h"
#include "propagation/CompleteShardings.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

using testing::parse;

TEST(CompleteShardings, LeavesAProgramWithoutShardingsAlone) {
  std::unique_ptr<Module> m = parse(R"(
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
)");
  std::string before = printModule(*m);
  Diagnostics diags;
  CompletionStats stats;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, &stats));
  EXPECT_EQ(stats.userShardings, 0u);
  EXPECT_FALSE(stats.propagated);
  EXPECT_EQ(printModule(*m), before);
}

TEST(CompleteShardings, ArgumentShardingReachesTheOpsAndResults) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["model"=2]>
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.tanh %0 : tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
)");
  Diagnostics diags;
  CompletionStats stats;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, &stats));
  EXPECT_EQ(stats.userShardings, 1u);
  EXPECT_TRUE(stats.propagated);
  std::string out = printModule(*m);
  EXPECT_NE(out.find("stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"model\"}]>]>}"),
            std::string::npos)
      << out;
}

// Loops pass shardings on through data-flow edges, which the completion adds
// and removes again: the loop gets the sharding and no edge is left.
TEST(CompleteShardings, GoesThroughWhileLoopsAndLeavesNoEdges) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["data"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %a, %i = %c0) : tensor<8x8xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare  LT, %i, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.multiply %iterArg, %iterArg : tensor<8x8xf32>
    stablehlo.return %2, %i : tensor<8x8xf32>, tensor<i32>
  }
  return %1#0 : tensor<8x8xf32>
}
)");
  Diagnostics diags;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags));
  std::string out = printModule(*m);
  EXPECT_EQ(out.find("sdy.data_flow_edge"), std::string::npos) << out;
  EXPECT_NE(out.find("stablehlo.multiply %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                     "[{\"data\"}, {}]>]>}"),
            std::string::npos)
      << out;
}

// A framework's wrapper (torch-xla / tt-xla exports): the whole program in
// one manual computation whose in_shardings are the only shardings; XLA
// gives the function's arguments those shardings.
TEST(CompleteShardings, ManualComputationShardingsReachTheArguments) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.add %arg1, %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  Diagnostics diags;
  CompletionStats stats;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, &stats));
  EXPECT_EQ(stats.userShardings, 2u);  // one in, one out
  std::string out = printModule(*m);
  EXPECT_NE(out.find("%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}"),
            std::string::npos)
      << out;
}

// Two arguments want the add's dimension 0 on different axes: the p0 one
// propagates first and wins, as XLA's user-priority rounds decide.
TEST(CompleteShardings, HonoursUserPriorities) {
  const char *kProgram = R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}PX, {}]>},
                %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}PY, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %x, %y : tensor<8x8xf32>
  %1 = stablehlo.tanh %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";
  auto run = [&](const std::string &px, const std::string &py) {
    std::string text = kProgram;
    text.replace(text.find("PX"), 2, px);
    text.replace(text.find("PY"), 2, py);
    std::unique_ptr<Module> m = parse(text);
    Diagnostics diags;
    EXPECT_TRUE(completeShardingsAsXla(*m, diags));
    return printModule(*m);
  };
  // The result (the tanh's sharding); the losing argument is resharded.
  EXPECT_NE(run("p0", "p1").find("-> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>})"),
            std::string::npos);
  EXPECT_NE(run("p1", "p0").find("-> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"b\"}, {}]>})"),
            std::string::npos);
}

// One source of truth: the registered `-sdy-propagation-pipeline` is
// runPropagationPipeline, and the completion is the same function without
// its explicit-reshard step (closed shardings, constraints as reshards) and
// with the meshes left as symbols.
TEST(CompleteShardings, IsThePropagationPipeline) {
  const char *kProgram = R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p1, {}]>},
                %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}p0, {}]>}) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %0 = stablehlo.add %x, %c : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %y : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
)";
  std::unique_ptr<Module> completed = parse(kProgram), piped = parse(kProgram);
  std::unique_ptr<Module> registered = parse(kProgram), called = parse(kProgram);
  Diagnostics diags;
  ASSERT_TRUE(lookupPass("sdy-propagation-pipeline")->run(*registered, PassOptions{}, diags)) << diags.errorText();
  ASSERT_TRUE(runPropagationPipeline(*called, PassOptions{}, diags)) << diags.errorText();
  EXPECT_EQ(printModule(*registered), printModule(*called));
  EXPECT_NE(printModule(*called).find("sdy.reshard"), std::string::npos);
  ASSERT_TRUE(completeShardingsAsXla(*completed, diags, nullptr)) << diags.errorText();
  ASSERT_TRUE(runPropagationPipeline(*piped, PassOptions::parse("inline-meshes=false"), diags, nullptr, false))
      << diags.errorText();
  EXPECT_EQ(printModule(*completed), printModule(*piped));
  // With the value map asked for too: the same program, no marks left.
  std::unique_ptr<Module> mapped = parse(kProgram);
  ValueCopies copies;
  ASSERT_TRUE(completeShardingsAsXla(*mapped, diags, nullptr, &copies)) << diags.errorText();
  EXPECT_EQ(printModule(*mapped), printModule(*piped));
}

// The splitter gives each user of %c a copy; the copies' shardings differ,
// so %c has none of its own (XLA shards each use its way), while the ops
// keep theirs under their own value ids.
TEST(CompleteShardings, MapsTheInputsValuesThroughConstantCopies) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %d = stablehlo.constant dense<2.0> : tensor<8x16xf32>
  %0 = stablehlo.add %a, %c : tensor<8x16xf32>
  %1 = stablehlo.multiply %b, %c : tensor<8x16xf32>
  %2 = stablehlo.add %0, %d : tensor<8x16xf32>
  %3 = stablehlo.subtract %2, %d : tensor<8x16xf32>
  return %3, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
)");
  FuncView f{*m, m->findEntryFunction()};
  std::vector<OpId> ops;
  m->walk(f.op, [&](OpId op) { ops.push_back(op); });
  // ops: %c, %d, %0, %1, %2, %3, return.
  ValueId c = m->result(ops[0]), d = m->result(ops[1]), v0 = m->result(ops[2]), v1 = m->result(ops[3]);
  size_t before = m->values.size();
  Diagnostics diags;
  ValueCopies copies;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, nullptr, &copies)) << diags.errorText();
  ASSERT_EQ(copies.size(), before);
  EXPECT_EQ(copies[c].size(), 2u);  // one copy per user
  EXPECT_EQ(copies[v0], std::vector<ValueId>{v0});
  EXPECT_EQ(copies[f.args()[0]], std::vector<ValueId>{f.args()[0]});
  size_t disagreeing = 0;
  ShardingVector original =
      shardingsOfOriginals(copies, [&](ValueId v) { return valueSharding(*m, v); }, &disagreeing);
  EXPECT_EQ(disagreeing, 1u);
  EXPECT_FALSE(original[c]);
  // %d's two users agree ("data" from %a), so the copies merge into one
  // sharding.
  ASSERT_TRUE(original[d]);
  EXPECT_EQ(original[d]->str(), "#sdy.sharding<@mesh, [{\"data\"}, {}]>");
  ASSERT_TRUE(original[v1]);
  EXPECT_EQ(original[v1]->str(), "#sdy.sharding<@mesh, [{}, {\"model\"}]>");
}

// Each call becomes a named computation holding a copy of its callee, and
// a call of a new function again after propagation; the export steps then
// unflatten the call graph: the two copies of @f, sharded alike, are merged
// into one @f, and @unused is erased. Each call maps to the call that
// replaced it; the arguments of @f and @f_0 both map to the merged @f's (XLA
// runs it for both calls); @f's negate maps to the merged @f's, while the
// copy merged away and @unused's ops have none left (XLA runs none of them).
TEST(CompleteShardings, MapsTheInputsValuesThroughAnUnflattenedCallGraph) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %y : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f_0(%y: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  %0 = stablehlo.negate %y : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @unused(%y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %y : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  std::vector<OpId> funcs = m->functions();
  ASSERT_EQ(funcs.size(), 4u);
  // The result of each function's first op (main: the call of @f).
  auto firstResult = [&](OpId func) {
    std::vector<OpId> ops;
    m->walk(func, [&](OpId op) { ops.push_back(op); });
    return m->result(ops[0]);
  };
  ValueId call = firstResult(funcs[0]), fNeg = firstResult(funcs[1]), f0Neg = firstResult(funcs[2]);
  ValueId fArg = FuncView{*m, funcs[1]}.args()[0], f0Arg = FuncView{*m, funcs[2]}.args()[0];
  ValueId unusedAbs = firstResult(funcs[3]);
  Diagnostics diags;
  ValueCopies copies;
  ASSERT_TRUE(completeShardingsAsXla(*m, diags, nullptr, &copies)) << diags.errorText();
  std::string out = printModule(*m);
  std::vector<OpId> now = m->functions();
  ASSERT_EQ(now.size(), 2u) << out;
  EXPECT_NE(out.find("%1 = call @f(%arg0)"), std::string::npos) << out;
  OpId mainNow = now[0], fNow = now[1];
  ASSERT_EQ((FuncView{*m, fNow}.name()), "f") << out;
  ValueId fNowArg = FuncView{*m, fNow}.args()[0];
  EXPECT_EQ(copies[call], std::vector<ValueId>{firstResult(mainNow)});
  EXPECT_EQ(copies[fNeg], std::vector<ValueId>{firstResult(fNow)});
  EXPECT_EQ(copies[fArg], std::vector<ValueId>{fNowArg});
  EXPECT_EQ(copies[f0Arg], std::vector<ValueId>{fNowArg});
  EXPECT_TRUE(copies[f0Neg].empty());
  EXPECT_TRUE(copies[unusedAbs].empty());
  // The propagated sharding reaches the callee through either call.
  ShardingVector original = shardingsOfOriginals(copies, [&](ValueId v) { return valueSharding(*m, v); });
  ASSERT_TRUE(original[fArg]);
  EXPECT_EQ(original[fArg]->str(), "#sdy.sharding<@mesh, [{\"a\"}]>");
  ASSERT_TRUE(original[fNeg]);
  EXPECT_EQ(original[fNeg]->str(), "#sdy.sharding<@mesh, [{\"a\"}]>");
}

}  // namespace
}  // namespace autopart
