// Hardware descriptions the cost model runs on: peak dense FLOP/s per element
// type, HBM capacity and bandwidth, and the links collectives use. Built-in
// presets carry public datasheet numbers (sources in docs/hardware.md); a
// JSON file overrides any field or defines a new device:
//
//   {"base": "h100-80gb", "name": "h100-slow-ib",
//    "inter_node": {"bandwidth_gbps": 25}, "peak_tflops": {"bf16": 700}}
//
// Links: a GPU's first `devices_per_node` devices (the minor mesh axes, as
// JAX lays meshes out) talk over NVLink, axes beyond the node over the
// network; a TPU axis is a ring of ICI links in both directions.
//
//   hardwareDeviceParams(h100, <["data"=64, "model"=8]>)
//     -> "model" on NVLink (450 GB/s per direction), "data" on InfiniBand (50 GB/s)
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/Sharding.h"
#include "sim/DeviceParams.h"
#include "support/Diagnostics.h"

namespace autopart {

struct Hardware {
  std::string name;
  std::string kind;  // "gpu" or "tpu"
  std::map<std::string, double> peakFlops;  // element type -> FLOP/s
  double hbmCapacity = 0;                   // bytes
  double hbmBandwidth = 0;                  // bytes/s
  int64_t devicesPerNode = 1;               // devices on the fast links
  LinkParams intraNode;                     // NVLink / ICI
  LinkParams interNode;                     // InfiniBand / DCN
  // Measured share of the links' datasheet bandwidth collectives reach
  // (NCCL bus bandwidth / link bandwidth).
  double intraNodeAchieved = 1, interNodeAchieved = 1;
  // Achievable throughput (sim/DeviceParams.h, sources in docs/hardware.md).
  MatmulParams matmul;
  double hbmEfficiency = 1;
  double kernelLaunchSeconds = 0;
  double combineThresholdBytes = 0;  // all-reduce, all-gather, reduce-scatter
  std::string source;                       // where the numbers come from
};

const std::vector<Hardware> &hardwarePresets();
// A preset name, or a JSON file (overrides on top of "base" or generic
// defaults). nullopt with `error` set on failure.
std::optional<Hardware> loadHardware(const std::string &nameOrPath, Diagnostics &diags);
// The cost model's view of `hw` on `mesh`: per-axis links by placement.
DeviceParams hardwareDeviceParams(const Hardware &hw, const Mesh &mesh);

}  // namespace autopart
