// The numbers the cost model reads from a hardware description: peak FLOP/s
// per element type, HBM bandwidth and capacity, and per mesh axis the link
// bandwidth and latency of the collectives along it. Kept as plain numbers so
// tests can state them by hand; tools fill them from the presets in
// sim/Hardware.h.
//
//   DeviceParams p;                      // 1 TFLOP/s, 1 TB/s HBM, 100 GB/s links
//   p.axisLinks["model"] = {300e9, 1e-6};  // faster axis
//   p.link("model").bandwidth == 300e9; p.link("data").bandwidth == 100e9
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/Types.h"

namespace autopart {

struct LinkParams {
  double bandwidth = 100e9;  // bytes/s each device sends (and receives)
  double latency = 0;        // seconds per collective step (the α of α-β)
  // A switched fabric (InfiniBand, data-center network) also runs all-reduce
  // as a pipelined double binary tree, NCCL's Tree algorithm: ⌈log2 n⌉ steps
  // instead of a ring's n-1. A torus axis (TPU ICI) stays a ring.
  bool treeAllReduce = false;
};

// What a GEMM library achieves of the datasheet peak (sim/MatmulEfficiency.h):
// large GEMMs reach `peakFraction`; a GEMM is cut into output tiles run in
// waves over `units` (SMs, MXUs), so partly filled tiles and waves waste
// throughput; each tile pays a fixed cost worth `kOverhead` steps of K.
struct GemmTile {
  int64_t m = 128, n = 128;
  double efficiency = 1;  // relative to the best tile on a large GEMM
};
struct MatmulParams {
  double peakFraction = 1;
  int64_t units = 0;  // 0: no tile or wave quantisation
  std::vector<GemmTile> tiles;
  double kOverhead = 0;
};

struct DeviceParams {
  std::string name = "generic";
  // Peak dense FLOP/s by element type; types not listed use peakFlopsDefault.
  std::map<std::string, double> peakFlopsByType;
  double peakFlopsDefault = 1e12;
  double hbmBandwidth = 1e12;  // bytes/s
  double hbmCapacity = 80e9;   // bytes
  // Share of hbmBandwidth a streaming kernel achieves.
  double hbmEfficiency = 1;
  // Fixed time per kernel (launch and tail), in seconds.
  double kernelLaunchSeconds = 0;
  MatmulParams matmul;
  // XLA's collective combiners merge independent collectives of one kind over
  // the same devices up to this many bytes (0: no combining).
  double allReduceCombineBytes = 0;
  double allGatherCombineBytes = 0;
  double reduceScatterCombineBytes = 0;
  std::map<std::string, LinkParams> axisLinks;
  LinkParams defaultLink;

  const LinkParams &link(const std::string &axis) const {
    auto it = axisLinks.find(axis);
    return it == axisLinks.end() ? defaultLink : it->second;
  }
  // Peak of the element type of `t` ("bf16", "f32", ...).
  double peakFlops(const TypeTable &types, TypeId t) const;
};

}  // namespace autopart
