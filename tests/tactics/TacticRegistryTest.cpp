// The tactic registry: every named tactic found by name and alias, names
// unique, default axes as documented, and the expert schedules `autopart
// search` turns into methods (same names and order as before the registry).
#include <set>

#include <gtest/gtest.h>

#include "tactics/TacticRegistry.h"

namespace autopart {
namespace {

// Written so that registering another tactic does not change these tests.
TEST(TacticRegistry, NamedTacticsAndAliases) {
  EXPECT_EQ(registeredTacticNames().rfind("dp, fsdp, megatron", 0), 0u) << registeredTacticNames();
  for (auto [spelling, name] : std::vector<std::pair<std::string, std::string>>{
           {"dp", "dp"}, {"batch", "dp"}, {"data_parallel", "dp"}, {"zero3", "fsdp"}, {"zero", "fsdp"},
           {"tp", "megatron"}, {"mp", "megatron"}, {"zero1", "zero1"}, {"zero-1", "zero1"}}) {
    const TacticInfo *t = findTactic(spelling);
    ASSERT_NE(t, nullptr) << spelling;
    EXPECT_EQ(t->name, name) << spelling;
  }
  EXPECT_EQ(findTactic("auto"), nullptr);
  EXPECT_EQ(findTactic("manual"), nullptr);
  EXPECT_EQ(findTactic("pipeline"), nullptr);
}

TEST(TacticRegistry, EveryTacticIsComplete) {
  std::set<std::string> spellings;
  for (const TacticInfo *t : registeredTactics()) {
    EXPECT_TRUE(t->seed) << t->name;
    EXPECT_FALSE(t->description.empty()) << t->name;
    EXPECT_FALSE(t->defaultAxis.names.empty()) << t->name;
    EXPECT_TRUE(spellings.insert(t->name).second) << t->name;
    for (const std::string &a : t->aliases) EXPECT_TRUE(spellings.insert(a).second) << a;
  }
}

TEST(TacticRegistry, DefaultAxes) {
  Mesh named{{{"batch", 2}, {"tensor", 4}}, {}};
  EXPECT_EQ(defaultAxisOn(findTactic("dp")->defaultAxis, named), "batch");
  EXPECT_EQ(defaultAxisOn(findTactic("megatron")->defaultAxis, named), "tensor");
  Mesh anonymous{{{"x", 2}, {"y", 4}}, {}};
  EXPECT_EQ(defaultAxisOn(findTactic("fsdp")->defaultAxis, anonymous), "x");
  EXPECT_EQ(defaultAxisOn(findTactic("megatron")->defaultAxis, anonymous), "y");
  EXPECT_EQ(defaultAxisOn(findTactic("zero1")->defaultAxis, anonymous), "x");
  EXPECT_EQ(defaultAxisOn(dataAxis(), Mesh{}), "");
}

TEST(TacticRegistry, ExpertSchedules) {
  // The methods `autopart search --method expert` ran before the registry,
  // in the same order; zero1 is not one.
  std::vector<std::string> got;
  for (const ExpertSchedule &e : expertSchedules())
    if (std::set<std::string>{"dp", "fsdp", "megatron", "dp+megatron", "fsdp+megatron", "zero1"}.count(e.name))
      got.push_back(e.name + "=" + e.schedule + "=" + e.description);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "dp=dp=Expert: batch parallelism",
                     "fsdp=fsdp=Expert: ZeRO-3 / FSDP",
                     "megatron=megatron=Expert: Megatron tensor parallelism",
                     "dp+megatron=dp,megatron=Expert: batch + Megatron",
                     "fsdp+megatron=fsdp,megatron=Expert: FSDP + Megatron",
                 }));
}

TEST(TacticRegistry, ClashesAreRejected) {
  std::string before = registeredTacticNames();
  TacticInfo dup{.name = "dp", .defaultAxis = dataAxis(), .description = "again"};
  EXPECT_THROW(TacticRegistration{dup}, std::logic_error);
  TacticInfo reserved{.name = "auto", .defaultAxis = dataAxis(), .description = "no"};
  EXPECT_THROW(TacticRegistration{reserved}, std::logic_error);
  TacticInfo alias{.name = "fresh", .aliases = {"zero-1"}, .defaultAxis = dataAxis(), .description = "no"};
  EXPECT_THROW(TacticRegistration{alias}, std::logic_error);
  EXPECT_EQ(findTactic("fresh"), nullptr);  // nothing half-registered
  EXPECT_EQ(registeredTacticNames(), before);
}

}  // namespace
}  // namespace autopart
