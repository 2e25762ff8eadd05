// GEMM efficiency by local shape (sim/MatmulEfficiency.h): tile fill, wave
// fill and the K overhead computed by hand, and the local GEMM shape of a
// batched, sharded dot_general.
#include "sim/MatmulEfficiency.h"

#include "sim/ShardingMap.h"
#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::parse;

// The header's A100 example: 108 SMs, 256x128 tiles, 80% of peak at best.
MatmulParams a100(double kOverhead = 0) {
  MatmulParams p;
  p.peakFraction = 0.8;
  p.units = 108;
  p.tiles = {{256, 128, 1.0}};
  p.kOverhead = kOverhead;
  return p;
}

TEST(MatmulEfficiency, LargeSquareGemmLosesOnlyThePartialLastWave) {
  GemmShape g{1, 8192, 8192, 8192};
  // 8192/256 · 8192/128 = 32·64 = 2048 tiles, every tile full;
  // 2048 / 108 = 18.96 waves run as 19: wave fill 2048 / 2052.
  EXPECT_DOUBLE_EQ(gemmEfficiency(g, a100()), 0.8 * 2048 / 2052);  // 0.7984
  // K overhead 64 (the A100 preset): × 8192 / (8192 + 64).
  EXPECT_DOUBLE_EQ(gemmEfficiency(g, a100(64)), 0.8 * 2048 / 2052 * 8192 / 8256);  // 0.7923
}

TEST(MatmulEfficiency, SkinnyGemmFillsOneSixthOfAWave) {
  MatmulParams p = a100();
  p.tiles = {{256, 128, 1.0}, {128, 64, 0.85}};
  GemmShape g{1, 2304, 64, 4096};
  // 256x128: ⌈2304/256⌉ = 9 by ⌈64/128⌉ = 1 tiles, half of each empty
  //          (tile fill 2304·64 / (2304·128) = 0.5), 9 of 108 SMs busy:
  //          1.0 · 0.5 · 9/108 = 0.0417.
  // 128x64:  18 by 1 full tiles, 18 of 108 SMs: 0.85 · 1 · 18/108 = 0.1417.
  // The better tile, times the peak fraction: 0.8 · 0.85 / 6.
  EXPECT_DOUBLE_EQ(gemmEfficiency(g, p), 0.8 * 0.85 * 18 / 108);  // 0.1133
  p.tiles = {{256, 128, 1.0}};
  EXPECT_DOUBLE_EQ(gemmEfficiency(g, p), 0.8 * 0.5 * 9 / 108);  // 0.0333
}

TEST(MatmulEfficiency, BatchMultipliesTheTilesOfAWave) {
  GemmShape g{8, 1024, 1024, 512};
  // Per matrix 4·8 = 32 tiles, 8 matrices: 256 tiles = 2.37 waves run as 3:
  // wave fill 256 / 324. K fill 512 / (512 + 64).
  EXPECT_DOUBLE_EQ(gemmEfficiency(g, a100(64)), 0.8 * 256 / 324 * 512 / 576);  // 0.5619
  // One matrix alone: 32 of 108 SMs.
  g.batch = 1;
  EXPECT_DOUBLE_EQ(gemmEfficiency(g, a100(64)), 0.8 * 32 / 108 * 512 / 576);  // 0.2107
}

TEST(MatmulEfficiency, WithoutUnitsOnlyPeakFractionAndKOverhead) {
  MatmulParams p;
  p.peakFraction = 0.9;
  p.kOverhead = 128;
  // 0.9 · 128 / (128 + 128)
  EXPECT_DOUBLE_EQ(gemmEfficiency({1, 3, 5, 128}, p), 0.45);
  // Default params: an ideal GEMM.
  EXPECT_DOUBLE_EQ(gemmEfficiency({1, 3, 5, 7}, MatmulParams{}), 1);
}

TEST(MatmulEfficiency, TinyGemmIsFlooredAboveZero) {
  // 1x1 output in one 256x128 tile (fill 1/32768) on 1 of 108 SMs:
  // 0.8 / 32768 / 108 = 2.3e-7, floored at 1e-3.
  EXPECT_DOUBLE_EQ(gemmEfficiency({1, 1, 1, 1}, a100()), 1e-3);
}

// A batched matmul [b, m1, m2, k] x [b, k, n] -> [b, m1, m2, n] with
// b = 8, m1·m2 = 4·16, k = 32, n = 128, on a mesh of 4.
constexpr const char *kBatchedDot = R"(sdy.mesh @mesh = <["d"=4]>
func.func @main(%a: tensor<8x4x16x32xf32>, %b: tensor<8x32x128xf32>) -> (tensor<8x4x16x128xf32>, tensor<8x4x16x128xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [3] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"d"}, {}, {}]>]>} : (tensor<8x4x16x32xf32>, tensor<8x32x128xf32>) -> tensor<8x4x16x128xf32>
  %1 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [3] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}, {}, {}]>]>} : (tensor<8x4x16x32xf32>, tensor<8x32x128xf32>) -> tensor<8x4x16x128xf32>
  return %0, %1 : tensor<8x4x16x128xf32>, tensor<8x4x16x128xf32>
}
)";

TEST(MatmulEfficiency, LocalGemmShapeOfABatchedShardedDot) {
  auto m = parse(kBatchedDot);
  ASSERT_TRUE(m);
  ShardingMap map = ShardingMap::fromModule(*m);
  std::vector<OpId> dots = testing::opsNamed(*m, "stablehlo.dot_general");
  ASSERT_EQ(dots.size(), 2u);
  const double global = 2.0 * 8 * 64 * 128 * 32;  // 2·b·M·N·K = 4194304

  // Replicated: batch 8, M = 4·16 (both lhs free dims), N 128, K 32.
  std::optional<GemmShape> g = localGemmShape(*m, dots[0], nullptr, nullptr, global);
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->batch, 8);
  EXPECT_DOUBLE_EQ(g->m, 64);
  EXPECT_DOUBLE_EQ(g->n, 128);
  EXPECT_DOUBLE_EQ(g->k, 32);  // 4194304 / (2 · 8·64·128)

  // m1 sharded 4 ways: m1 = 1, so M = 16; a quarter of the FLOPs, same K.
  const TensorSharding *s0 = map.get(m->result(dots[0]));
  ASSERT_TRUE(s0);
  g = localGemmShape(*m, dots[0], s0, map.mesh(*s0), global / 4);
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->batch, 8);
  EXPECT_DOUBLE_EQ(g->m, 16);
  EXPECT_DOUBLE_EQ(g->n, 128);
  EXPECT_DOUBLE_EQ(g->k, 32);  // 1048576 / (2 · 8·16·128)

  // The batch sharded: 2 matrices of 64x128.
  const TensorSharding *s1 = map.get(m->result(dots[1]));
  ASSERT_TRUE(s1);
  g = localGemmShape(*m, dots[1], s1, map.mesh(*s1), global / 4);
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->batch, 2);
  EXPECT_DOUBLE_EQ(g->m, 64);
  EXPECT_DOUBLE_EQ(g->n, 128);
  EXPECT_DOUBLE_EQ(g->k, 32);  // 1048576 / (2 · 2·64·128)

  // Not a contraction: no GEMM shape.
  auto e = parse(R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  ASSERT_TRUE(e);
  EXPECT_FALSE(localGemmShape(*e, testing::opsNamed(*e, "stablehlo.add")[0], nullptr, nullptr, 4));
}

}  // namespace
}  // namespace autopart
