#include <fstream>

#include <gtest/gtest.h>

#include "tactics/TacticRegistry.h"
#include "tactics/TacticSchedule.h"

using namespace autopart;

namespace {

Mesh dataModel() { return Mesh{{{"data", 8}, {"model", 4}}, {}}; }

TEST(TacticScheduleTest, InlineNamesUseDefaultAxes) {
  Diagnostics diags;
  auto s = parseTacticSchedule("dp,megatron", dataModel(), diags);
  ASSERT_TRUE(s) << diags.errorText();
  ASSERT_EQ(s->tactics.size(), 2u);
  EXPECT_EQ(s->tactics[0].kind, TacticKind::Named);
  EXPECT_EQ(s->tactics[0].name, "dp");
  EXPECT_EQ(s->tactics[0].axes, std::vector<std::string>{"data"});
  EXPECT_EQ(s->tactics[1].kind, TacticKind::Named);
  EXPECT_EQ(s->tactics[1].name, "megatron");
  EXPECT_EQ(s->tactics[1].axes, std::vector<std::string>{"model"});
}

TEST(TacticScheduleTest, InlineAxesAndAuto) {
  Diagnostics diags;
  auto s = parseTacticSchedule("fsdp:model, auto", dataModel(), diags);
  ASSERT_TRUE(s) << diags.errorText();
  EXPECT_EQ(s->tactics[0].axes, std::vector<std::string>{"model"});
  EXPECT_EQ(s->tactics[1].kind, TacticKind::Auto);
  EXPECT_EQ(s->tactics[1].axes, (std::vector<std::string>{"data", "model"}));
}

TEST(TacticScheduleTest, UnknownAxisIsAnError) {
  Diagnostics diags;
  EXPECT_FALSE(parseTacticSchedule("dp:rows", dataModel(), diags));
  EXPECT_NE(diags.errorText().find("'rows'"), std::string::npos) << diags.errorText();
  EXPECT_FALSE(parseTacticSchedule("pipeline", dataModel(), diags));
  EXPECT_NE(diags.errorText().find("unknown tactic 'pipeline'"), std::string::npos) << diags.errorText();
}

TEST(TacticScheduleTest, UnknownNameListsTheRegisteredTactics) {
  Diagnostics diags;
  EXPECT_FALSE(parseTacticSchedule("dp,zero2", dataModel(), diags));
  EXPECT_EQ(diags.all().back().message, "unknown tactic 'zero2' (registered: " + registeredTacticNames() +
                     "; also auto, and manual tactics in a JSON/YAML file)");
  EXPECT_NE(diags.errorText().find("dp, fsdp, megatron"), std::string::npos) << diags.errorText();
  EXPECT_FALSE(parseTacticSchedule("manual:model", dataModel(), diags));
  EXPECT_NE(diags.errorText().find("JSON/YAML file"), std::string::npos) << diags.errorText();
}

TEST(TacticScheduleTest, AliasesResolveToTheRegisteredName) {
  Diagnostics diags;
  auto s = parseTacticSchedule("batch, zero3, zero-1:model", dataModel(), diags);
  ASSERT_TRUE(s) << diags.errorText();
  ASSERT_EQ(s->tactics.size(), 3u);
  EXPECT_EQ(tacticName(s->tactics[0]), "dp");
  EXPECT_EQ(tacticName(s->tactics[1]), "fsdp");
  EXPECT_EQ(tacticName(s->tactics[2]), "zero1");
  EXPECT_EQ(s->tactics[2].axes, std::vector<std::string>{"model"});
  EXPECT_EQ(s->tactics[2].spelling, "zero-1:model");
}

TEST(TacticScheduleTest, YamlFileWithManualTactic) {
  std::string path = testing::TempDir() + "/plan.yaml";
  std::ofstream(path) << "- {tactic: dp, axis: data}\n"
                         "- {tactic: zero1}\n"
                         "- axis: model\n"
                         "  inputs: {\"params/*/w1\": 1, \"params/*/w2\": 0}\n";
  Diagnostics diags;
  auto s = parseTacticSchedule(path, dataModel(), diags);
  ASSERT_TRUE(s) << diags.errorText();
  ASSERT_EQ(s->tactics.size(), 3u);
  EXPECT_EQ(tacticName(s->tactics[1]), "zero1");
  EXPECT_EQ(s->tactics[1].axes, std::vector<std::string>{"data"});
  EXPECT_EQ(s->tactics[2].kind, TacticKind::Manual);
  ASSERT_EQ(s->tactics[2].inputs.size(), 2u);
  EXPECT_EQ(s->tactics[2].inputs[0], (std::pair<std::string, int64_t>{"params/*/w1", 1}));
  EXPECT_EQ(s->tactics[2].inputs[1], (std::pair<std::string, int64_t>{"params/*/w2", 0}));
}

TEST(TacticScheduleTest, JsonFileRejectsUnknownKeys) {
  std::string path = testing::TempDir() + "/plan.json";
  std::ofstream(path) << R"([{"tactic": "fsdp", "axsi": "data"}])";
  Diagnostics diags;
  EXPECT_FALSE(parseTacticSchedule(path, dataModel(), diags));
  EXPECT_NE(diags.errorText().find("unknown key 'axsi'"), std::string::npos) << diags.errorText();
  std::ofstream(path) << R"([{"tactic": "zero2"}])";
  EXPECT_FALSE(parseTacticSchedule(path, dataModel(), diags));
  EXPECT_NE(diags.errorText().find("unknown tactic 'zero2' (registered: " + registeredTacticNames() + ";"), std::string::npos) << diags.errorText();
}

}  // namespace
