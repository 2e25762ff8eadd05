// Shared helpers for the simulator tests: parse a program, a device with
// round numbers (1 TFLOP/s, 1 TB/s HBM, 100 GB/s links, no latency) so
// expected times can be computed by hand.
#pragma once

#include <gtest/gtest.h>

#include "ir/Parser.h"
#include "sim/DeviceParams.h"

namespace autopart::testing {

inline std::unique_ptr<Module> parse(const std::string &text) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

inline DeviceParams roundDevice() {
  DeviceParams d;
  d.peakFlopsDefault = 1e12;
  d.hbmBandwidth = 1e12;
  d.defaultLink = {100e9, 0};
  return d;
}

inline constexpr const char *kDotRule =
    "#sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=256, j=1024, k=1024} reduction={j}>";

}  // namespace autopart::testing
