// The share of peak FLOP/s a GEMM of a given shape achieves, after NVIDIA's
// "Matrix Multiplication Background" guide (tile and wave quantisation) and
// the same reasoning for TPU MXUs: the library cuts the M x N output into
// tiles, runs them in waves of `units` tiles at a time (one per SM / MXU),
// and each tile's main loop over K pays a fixed prologue and epilogue.
//
//   efficiency = peakFraction x tile fill x wave fill x K / (K + kOverhead)
//   tile fill  = M·N / (⌈M/tm⌉·tm · ⌈N/tn⌉·tn)
//   wave fill  = tiles / (⌈tiles / units⌉ · units),  tiles = batch·⌈M/tm⌉·⌈N/tn⌉
//
// taking the best tile the device's library offers. Example on A100
// (108 SMs, 256x128 tiles, peakFraction 0.8): M = N = 8192, K = 8192 ->
// 32·64 = 2048 full tiles = 18.96 waves, run as 19 -> wave fill
// 2048 / 2052 = 0.998, efficiency 0.798 (0.792 with the preset's
// kOverhead 64: × 8192 / 8256); M = 2304, N = 64 (a skinny GEMM) with
// 128x64 tiles: 18 tiles on 108 SMs -> wave fill 0.17.
#pragma once

#include <optional>

#include "ir/Module.h"
#include "sim/DeviceParams.h"

namespace autopart {

struct GemmShape {
  double batch = 1, m = 1, n = 1, k = 1;
};

// The per-device GEMM of a dot_general / dot / convolution whose result has
// sharding `result` (null: replicated) and whose local FLOPs are
// `localFlops` (K follows from them: FLOPs = 2·batch·M·N·K). A convolution
// counts as the implicit GEMM M = output elements / output features,
// N = output features. nullopt for other ops.
std::optional<GemmShape> localGemmShape(const Module &m, OpId op, const TensorSharding *result, const Mesh *mesh,
                                        double localFlops);

// Achieved fraction of peak, in (0, peakFraction].
double gemmEfficiency(const GemmShape &shape, const MatmulParams &params);

}  // namespace autopart
