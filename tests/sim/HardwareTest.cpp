#include <fstream>

#include <gtest/gtest.h>

#include "sim/Hardware.h"

using namespace autopart;

namespace {

TEST(HardwareTest, PresetsCarryDatasheetNumbers) {
  Diagnostics diags;
  auto h100 = loadHardware("h100-80gb", diags);
  ASSERT_TRUE(h100) << diags.errorText();
  EXPECT_DOUBLE_EQ(h100->peakFlops.at("bf16"), 989e12);
  EXPECT_DOUBLE_EQ(h100->hbmBandwidth, 3350e9);
  auto v5p = loadHardware("tpu-v5p", diags);
  ASSERT_TRUE(v5p) << diags.errorText();
  EXPECT_DOUBLE_EQ(v5p->peakFlops.at("bf16"), 459e12);
  EXPECT_EQ(hardwarePresets().size(), 5u);
}

TEST(HardwareTest, GpuAxesInsideANodeUseNvlink) {
  Diagnostics diags;
  auto h100 = loadHardware("h100-80gb", diags);
  ASSERT_TRUE(h100);
  Mesh mesh{{{"data", 16}, {"model", 8}}, {}};
  DeviceParams p = hardwareDeviceParams(*h100, mesh);
  // Datasheet bandwidth times the share NCCL measures on it.
  EXPECT_DOUBLE_EQ(p.link("model").bandwidth, 450e9 * h100->intraNodeAchieved);  // minor axis: 8 GPUs of a node
  EXPECT_DOUBLE_EQ(p.link("data").bandwidth, 50e9 * h100->interNodeAchieved);    // across nodes
  EXPECT_DOUBLE_EQ(p.link("data").bandwidth, 47e9);
}

TEST(HardwareTest, JsonOverridesABase) {
  std::string path = testing::TempDir() + "/dev.json";
  std::ofstream(path) << R"({"base": "a100-80gb", "name": "slow", "inter_node": {"bandwidth_gbps": 12.5}})";
  Diagnostics diags;
  auto h = loadHardware(path, diags);
  ASSERT_TRUE(h) << diags.errorText();
  EXPECT_EQ(h->name, "slow");
  EXPECT_DOUBLE_EQ(h->interNode.bandwidth, 12.5e9);
  EXPECT_TRUE(h->interNode.treeAllReduce);  // kept from the base
  EXPECT_FALSE(h->intraNode.treeAllReduce);
  std::ofstream(path) << R"({"base": "a100-80gb", "inter_node": {"tree_all_reduce": false}})";
  h = loadHardware(path, diags);
  ASSERT_TRUE(h) << diags.errorText();
  EXPECT_FALSE(h->interNode.treeAllReduce);
  EXPECT_DOUBLE_EQ(h->peakFlops.at("bf16"), 312e12);
}

TEST(HardwareTest, UnknownNamesAndFieldsAreErrors) {
  Diagnostics diags;
  EXPECT_FALSE(loadHardware("h200", diags));
  EXPECT_NE(diags.errorText().find("unknown device 'h200'"), std::string::npos) << diags.errorText();
  std::string path = testing::TempDir() + "/bad.json";
  std::ofstream(path) << R"({"hbm_tb": 3})";
  EXPECT_FALSE(loadHardware(path, diags));
  EXPECT_NE(diags.errorText().find("unknown field 'hbm_tb'"), std::string::npos) << diags.errorText();
}

}  // namespace
