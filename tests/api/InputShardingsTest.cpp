// The input's shardings meeting a new mesh: each policy on a small program.
#include "api/InputShardings.h"

#include "asm/Printer.h"
#include "tests/TestUtil.h"

namespace autopart {
namespace {

constexpr const char *kProgram = R"(module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y":(1)2}]> : tensor<8x8xf32>
    %1 = stablehlo.abs %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
)";

struct Outcome {
  bool ok;
  std::string text, errors;
  std::vector<Note> notes;
};

Outcome reconcile(const std::string &program, const Mesh &mesh, InputShardingPolicy policy) {
  std::unique_ptr<Module> m = testing::parse(program);
  Diagnostics diags;
  Outcome o;
  o.ok = reconcileInputShardings(m, "mesh", mesh, policy, diags, o.notes);
  o.text = printModule(*m);
  o.errors = diags.errorText();
  return o;
}

Mesh mesh(std::vector<MeshAxis> axes) { return Mesh{std::move(axes), {}}; }

TEST(InputShardingsTest, DefaultStopsAtTheFirstConflictingSharding) {
  Outcome o = reconcile(kProgram, mesh({{"data", 2}, {"model", 4}}), InputShardingPolicy::Error);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.errors.find("t.mlir:3:3: error: the input's mesh @mesh = <[\"x\"=2, \"y\"=4]> differs from --mesh "
                          "<[\"data\"=2, \"model\"=4]>, and 2 input sharding(s) use its axes; "
                          "#sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]> uses axis \"x\"=2"),
            std::string::npos)
      << o.errors;
}

TEST(InputShardingsTest, MapRenamesAxesOfEqualSize) {
  Outcome o = reconcile(kProgram, mesh({{"model", 4}, {"data", 2}}), InputShardingPolicy::Map);
  ASSERT_TRUE(o.ok) << o.errors;
  EXPECT_NE(o.text.find("sdy.mesh @mesh = <[\"model\"=4, \"data\"=2]>"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("#sdy.sharding<@mesh, [{\"data\"}, {\"model\"}]>"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("<@mesh, [{}, {\"model\":(1)2}]>"), std::string::npos) << o.text;
  ASSERT_EQ(o.notes.size(), 1u);
  EXPECT_NE(o.notes[0].line.find("x -> data, y -> model"), std::string::npos);
}

TEST(InputShardingsTest, MapRenamesCollectiveAxesAndRemovesSizeOneAxes) {
  const char *program = R"(sdy.mesh @mesh = <["u"=1, "x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"u", "x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"u", "x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";
  Outcome o = reconcile(program, mesh({{"data", 2}, {"model", 4}}), InputShardingPolicy::Map);
  ASSERT_TRUE(o.ok) << o.errors;
  EXPECT_NE(o.text.find("sdy.all_gather [{\"data\"}, {}] %arg0 out_sharding=<@mesh, [{}, {\"model\"}]>"),
            std::string::npos)
      << o.text;
  EXPECT_NE(o.text.find("#sdy.sharding<@mesh, [{\"data\"}, {\"model\"}]>"), std::string::npos) << o.text;
  ASSERT_EQ(o.notes.size(), 1u);
  EXPECT_NE(o.notes[0].line.find("u -> (size 1, removed), x -> data, y -> model"), std::string::npos)
      << o.notes[0].line;
}

TEST(InputShardingsTest, MapNeedsAnAxisOfEachSize) {
  Outcome o = reconcile(kProgram, mesh({{"data", 2}, {"model", 2}}), InputShardingPolicy::Map);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.errors.find("no axis of size 4 left for the input's axis \"y\""), std::string::npos) << o.errors;
}

TEST(InputShardingsTest, KeepAcceptsAMeshWithTheInputsAxes) {
  Outcome bad = reconcile(kProgram, mesh({{"x", 2}, {"y", 2}}), InputShardingPolicy::Keep);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.errors.find("uses axis \"y\"=4"), std::string::npos) << bad.errors;
  Outcome o = reconcile(kProgram, mesh({{"x", 2}, {"y", 4}, {"z", 2}}), InputShardingPolicy::Keep);
  ASSERT_TRUE(o.ok) << o.errors;
  EXPECT_NE(o.text.find("#sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>"), std::string::npos);
  // With no conflict the default keeps them too, and says so.
  Outcome dflt = reconcile(kProgram, mesh({{"x", 2}, {"y", 4}, {"z", 2}}), InputShardingPolicy::Error);
  ASSERT_TRUE(dflt.ok) << dflt.errors;
  ASSERT_EQ(dflt.notes.size(), 1u);
  EXPECT_NE(dflt.notes[0].line.find("kept 2 input sharding(s)"), std::string::npos);
}

TEST(InputShardingsTest, DropRemovesShardingsAndConstraints) {
  Outcome o = reconcile(kProgram, mesh({{"data", 8}}), InputShardingPolicy::Drop);
  ASSERT_TRUE(o.ok) << o.errors;
  EXPECT_EQ(o.text.find("sdy.sharding"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("sharding_constraint"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("stablehlo.abs %arg0"), std::string::npos) << o.text;
  ASSERT_EQ(o.notes.size(), 1u);
  ASSERT_TRUE(o.notes[0].diagnostic);
  EXPECT_NE(o.notes[0].diagnostic->message.find("dropped 2 input sharding(s)"), std::string::npos);
}

TEST(InputShardingsTest, SameMeshChangesNothing) {
  Outcome o = reconcile(kProgram, mesh({{"x", 2}, {"y", 4}}), InputShardingPolicy::Error);
  EXPECT_TRUE(o.ok);
  EXPECT_TRUE(o.notes.empty());
}

TEST(InputShardingsTest, PolicyNames) {
  Diagnostics diags;
  EXPECT_EQ(parseInputShardingPolicy("", diags), InputShardingPolicy::Error);
  EXPECT_EQ(parseInputShardingPolicy("map", diags), InputShardingPolicy::Map);
  EXPECT_FALSE(parseInputShardingPolicy("rename", diags));
  EXPECT_TRUE(diags.hasErrors());
}

}  // namespace
}  // namespace autopart
