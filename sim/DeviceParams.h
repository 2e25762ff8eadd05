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

struct DeviceParams {
  std::string name = "generic";
  // Peak dense FLOP/s by element type; types not listed use peakFlopsDefault.
  std::map<std::string, double> peakFlopsByType;
  double peakFlopsDefault = 1e12;
  double hbmBandwidth = 1e12;  // bytes/s
  double hbmCapacity = 80e9;   // bytes
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
