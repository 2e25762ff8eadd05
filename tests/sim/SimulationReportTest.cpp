// The simulate report of the FSDP step (tests/sim/SimTestUtil.h): the two
// collectives, the memory peak and the roofline fraction, by hand.
#include "sim/SimulationReport.h"

#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::kFsdpStep;
using testing::parse;
using testing::roundDevice;

TEST(SimulationReport, FsdpStep) {
  auto m = parse(kFsdpStep);
  nlohmann::json r = simulationReport(*m, ShardingMap::fromModule(*m), roundDevice());
  EXPECT_EQ(r["devices"], 8);
  const double ring = 7.0 / 8 * 131072 / 100e9;  // w1 / dw1 are 128 KiB
  ASSERT_EQ(r["top_collectives"].size(), 2u);
  EXPECT_EQ(r["top_collectives"][0]["kind"], "all-gather");  // equal cost: program order
  EXPECT_EQ(r["top_collectives"][0]["where"], "t.mlir:7:8");
  EXPECT_EQ(r["top_collectives"][1]["kind"], "reduce-scatter");
  for (const auto &c : r["top_collectives"]) {
    EXPECT_EQ(c["bytes"], 131072);
    EXPECT_DOUBLE_EQ(c["seconds"].get<double>(), ring);
  }
  EXPECT_DOUBLE_EQ(r["communication_seconds"].get<double>(), 2 * ring);
  const double flops = 2 * 2.0 * 1024 * 128 * 256;
  EXPECT_DOUBLE_EQ(r["global_flops"].get<double>(), flops);
  EXPECT_DOUBLE_EQ(r["roofline_fraction"].get<double>(), flops / (8 * 1e12) / r["step_seconds"].get<double>());

  // Local buffers: x 64 KiB, w1 16 KiB, dh 128 KiB resident; h 128 KiB and
  // dw1 16 KiB. The peak is at the gradient dot: arguments + h + dw1 + the
  // 128 KiB buffer of its reduce-scatter.
  const auto &mem = r["memory"];
  EXPECT_EQ(mem["argument_bytes"], 212992);
  EXPECT_EQ(mem["peak_bytes"], 212992 + 131072 + 16384 + 131072);
  EXPECT_EQ(mem["peak_at"], "t.mlir:8:10");
  // One point per op of the entry (both dots and the return), the peak among
  // them at the gradient dot.
  ASSERT_EQ(mem["timeline"].size(), 3u);
  EXPECT_EQ(mem["timeline"][1]["op_index"], 1);
  EXPECT_EQ(mem["timeline"][1]["bytes"], mem["peak_bytes"]);
  EXPECT_EQ(mem["timeline"][1]["where"], "t.mlir:8:10");
  // By category: dh is the right-hand side of a contraction, so a parameter
  // like w1 (analysis/ArgumentRoles.h); x is the input; no result carries
  // state, so dw1 is an activation like h.
  const auto &by = mem["breakdown"];
  EXPECT_EQ(by["parameters"], 16384 + 131072);
  EXPECT_EQ(by["inputs"], 65536);
  EXPECT_EQ(by["activations"], 131072 + 16384);
  EXPECT_EQ(by["collective_buffers"], 131072);
  EXPECT_EQ(by["gradients"], 0);
  EXPECT_EQ(by["optimizer_state"], 0);
  EXPECT_EQ(by["other"], 0);

  std::string text = formatSimulationReport(r);
  EXPECT_NE(text.find("peak memory    480.00 KiB of 74.51 GiB\n"
                      "  parameters 144.00 KiB, activations 144.00 KiB, inputs 64.00 KiB, collective buffers 128.00 KiB\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("all-gather {\"d\"} 128.00 KiB  t.mlir:7:8"), std::string::npos) << text;
}

TEST(SimulationReport, TopLimitsTheLists) {
  auto m = parse(kFsdpStep);
  ReportOptions o;
  o.top = 1;
  nlohmann::json r = simulationReport(*m, ShardingMap::fromModule(*m), roundDevice(), o);
  EXPECT_EQ(r["top_collectives"].size(), 1u);
  EXPECT_EQ(r["top_ops"].size(), 1u);
  EXPECT_EQ(r["memory"]["live_at_peak"].size(), 1u);
}

}  // namespace
}  // namespace autopart
