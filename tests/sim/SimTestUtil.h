// Shared helpers for the simulator tests (parsing is in tests/TestUtil.h): a
// device with round numbers (1 TFLOP/s, 1 TB/s HBM, 100 GB/s links, no
// latency) so expected times can be computed by hand.
#pragma once

#include <gtest/gtest.h>

#include "sim/DeviceParams.h"
#include "tests/TestUtil.h"

namespace autopart::testing {

inline DeviceParams roundDevice() {
  DeviceParams d;
  d.peakFlopsDefault = 1e12;
  d.hbmBandwidth = 1e12;
  d.defaultLink = {100e9, 0};
  return d;
}

inline constexpr const char *kDotRule =
    "#sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=256, j=1024, k=1024} reduction={j}>";

// Forward h = x . w1 and the weight gradient dw1 = x^T . dh, batch 1024,
// 128 -> 256 features, f32, FSDP over d=8: x, dh and w1 (and dw1) are all
// sharded on their first dimension.
inline constexpr const char *kFsdpStep = R"(sdy.mesh @mesh = <["d"=8]>
func.func @main(%x: tensor<1024x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %w1: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %dh: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>})
    -> (tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
        tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=1024, j=128, k=256} reduction={j}>} : (tensor<1024x128xf32>, tensor<128x256xf32>) -> tensor<1024x256xf32>
  %dw1 = stablehlo.dot_general %x, %dh, contracting_dims = [0] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([j, i], [j, k])->([i, k]) {i=128, j=1024, k=256} reduction={j}>} : (tensor<1024x128xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
  return %h, %dw1 : tensor<1024x256xf32>, tensor<128x256xf32>
}
)";

}  // namespace autopart::testing
