#include "sim/Hardware.h"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

namespace autopart {

namespace {

constexpr double kT = 1e12, kG = 1e9;

Hardware gpu(std::string name, double bf16, double fp8, double f32, double hbmGB, double hbmGBs,
             double nvlinkGBs, double netGBs, std::string source) {
  Hardware h;
  h.name = std::move(name);
  h.kind = "gpu";
  h.peakFlops = {{"bf16", bf16}, {"f16", bf16}, {"f32", f32}, {"f64", f32 / 2}};
  if (fp8 > 0) {
    h.peakFlops["f8E4M3FN"] = fp8;
    h.peakFlops["f8E5M2"] = fp8;
  }
  h.hbmCapacity = hbmGB * kG;
  h.hbmBandwidth = hbmGBs * kG;
  h.devicesPerNode = 8;
  // Per ring step: NCCL's own tuning model (src/graph/tuning.cc, hwLat, Ring
  // with the Simple protocol large transfers use): 3.4 µs over NVLink, 9.6 µs
  // over the network.
  h.intraNode = {nvlinkGBs * kG, 3.4e-6};
  h.interNode = {netGBs * kG, 9.6e-6, true};
  h.source = std::move(source);
  // cuBLAS picks among these output tiles; smaller tiles reuse less data
  // per load (relative efficiencies are this model's assumption).
  h.matmul.tiles = {{256, 128, 1.0}, {128, 128, 0.95}, {128, 64, 0.85}, {64, 64, 0.7}};
  h.matmul.kOverhead = 64;
  // XLA's GPU performance model: 1 µs per kernel launch; its combiners' default
  // thresholds (xla/debug_options_flags.cc): 30 MiB.
  h.kernelLaunchSeconds = 1e-6;
  h.combineThresholdBytes = 30.0 * 1024 * 1024;
  return h;
}

// Measured large-GEMM throughput (share of peak), SM count, STREAM-like HBM
// share and NCCL bus bandwidth shares; sources in docs/hardware.md.
Hardware measured(Hardware h, double gemmPeakFraction, int64_t units, double hbmEfficiency, double intraAchieved,
                  double interAchieved) {
  h.matmul.peakFraction = gemmPeakFraction;
  h.matmul.units = units;
  h.hbmEfficiency = hbmEfficiency;
  h.intraNodeAchieved = intraAchieved;
  h.interNodeAchieved = interAchieved;
  return h;
}

Hardware tpu(std::string name, double bf16, double int8, double hbmGB, double hbmGBs,
             double iciLinkGBs, std::string source) {
  Hardware h;
  h.name = std::move(name);
  h.kind = "tpu";
  // TPUs run f32 matmuls through bf16 passes; XLA's default precision uses
  // one pass, so f32 is costed like bf16.
  h.peakFlops = {{"bf16", bf16}, {"f32", bf16}, {"i8", int8}};
  h.hbmCapacity = hbmGB * kG;
  h.hbmBandwidth = hbmGBs * kG;
  h.devicesPerNode = 1 << 12;  // a slice: every mesh axis rides ICI
  // An axis is a ring: both directions of the link pair along it.
  h.intraNode = {2 * iciLinkGBs * kG, 2e-6};
  h.interNode = {12.5 * kG, 20e-6, true};  // data-center network between slices
  h.source = std::move(source);
  // The MXU is a 128x128 systolic array: 128x128 output tiles, one per MXU.
  h.matmul.tiles = {{128, 128, 1.0}};
  h.matmul.kOverhead = 128;
  h.matmul.peakFraction = 0.9;
  h.hbmEfficiency = 0.9;
  h.kernelLaunchSeconds = 1e-6;
  h.combineThresholdBytes = 30.0 * 1024 * 1024;
  return h;
}

Hardware tpuUnits(Hardware h, int64_t mxus) {
  h.matmul.units = mxus;
  return h;
}

}  // namespace

const std::vector<Hardware> &hardwarePresets() {
  static const std::vector<Hardware> presets = {
      tpuUnits(tpu("tpu-v4", 275 * kT, 275 * kT, 32 * 1.073741824, 1200, 50,
          "Google Cloud TPU v4 system architecture: 275 TFLOP/s bf16, 32 GiB HBM2 at 1200 GB/s, "
          "6 ICI links (2400 Gbps)"), 8),
      tpuUnits(tpu("tpu-v5e", 197 * kT, 394 * kT, 16, 819, 50,
          "Google Cloud TPU v5e: 197 TFLOP/s bf16, 394 TOPS int8, 16 GB HBM2 at 819 GB/s, "
          "ICI 1600 Gbps (4 links)"), 4),
      tpuUnits(tpu("tpu-v5p", 459 * kT, 918 * kT, 95, 2765, 100,
          "Google Cloud TPU v5p: 459 TFLOP/s bf16, 918 TOPS int8, 95 GB HBM2e at 2765 GB/s, "
          "ICI 4800 Gbps (6 links)"), 8),
      measured(gpu("a100-80gb", 312 * kT, 0, 19.5 * kT, 80, 2039, 300, 25,
          "NVIDIA A100 80GB SXM datasheet: 312 TFLOP/s bf16 dense, 19.5 TFLOP/s f32, 80 GB HBM2e "
          "at 2039 GB/s, NVLink 600 GB/s (300 per direction); HDR InfiniBand 200 Gb/s per GPU"),
               0.87, 108, 0.89, 230.0 / 300, 24.0 / 25),
      measured(gpu("h100-80gb", 989 * kT, 1979 * kT, 67 * kT, 80, 3350, 450, 50,
          "NVIDIA H100 SXM5 datasheet: 989 TFLOP/s bf16 dense, 1979 fp8 dense, 67 f32, 80 GB "
          "HBM3 at 3.35 TB/s, NVLink 900 GB/s (450 per direction); NDR InfiniBand 400 Gb/s per GPU"),
               0.80, 132, 0.89, 1.0, 47.0 / 50),
  };
  return presets;
}

static bool applyJson(Hardware &h, const nlohmann::json &j, const std::string &path, Diagnostics &diags) {
  for (auto &[key, v] : j.items()) {
    if (key == "base" || key == "source") continue;
    if (key == "name") h.name = v.get<std::string>();
    else if (key == "kind") h.kind = v.get<std::string>();
    else if (key == "hbm_gb") h.hbmCapacity = v.get<double>() * kG;
    else if (key == "hbm_gbps") h.hbmBandwidth = v.get<double>() * kG;
    else if (key == "devices_per_node") h.devicesPerNode = v.get<int64_t>();
    else if (key == "hbm_efficiency") h.hbmEfficiency = v.get<double>();
    else if (key == "kernel_launch_us") h.kernelLaunchSeconds = v.get<double>() * 1e-6;
    else if (key == "combine_threshold_mib") h.combineThresholdBytes = v.get<double>() * 1024 * 1024;
    else if (key == "matmul_peak_fraction") h.matmul.peakFraction = v.get<double>();
    else if (key == "matmul_units") h.matmul.units = v.get<int64_t>();
    else if (key == "peak_tflops") {
      for (auto &[t, f] : v.items()) h.peakFlops[t] = f.get<double>() * kT;
    } else if (key == "intra_node" || key == "inter_node") {
      LinkParams &l = key == "intra_node" ? h.intraNode : h.interNode;
      for (auto &[k, x] : v.items()) {
        if (k == "bandwidth_gbps") l.bandwidth = x.get<double>() * kG;
        else if (k == "latency_us") l.latency = x.get<double>() * 1e-6;
        else if (k == "tree_all_reduce") l.treeAllReduce = x.get<bool>();
        else if (k == "achieved_fraction") (key == "intra_node" ? h.intraNodeAchieved : h.interNodeAchieved) = x.get<double>();
        else {
          diags.error("unknown field '" + key + "." + k +
                          "' (expected bandwidth_gbps, latency_us, tree_all_reduce, achieved_fraction)",
                      path);
          return false;
        }
      }
    } else {
      diags.error("unknown field '" + key +
                      "' (expected name, base, kind, peak_tflops, hbm_gb, hbm_gbps, devices_per_node, "
                      "intra_node, inter_node, hbm_efficiency, kernel_launch_us, combine_threshold_mib, "
                      "matmul_peak_fraction, matmul_units)",
                  path);
      return false;
    }
  }
  return true;
}

std::optional<Hardware> loadHardware(const std::string &nameOrPath, Diagnostics &diags) {
  for (const Hardware &h : hardwarePresets())
    if (h.name == nameOrPath) return h;
  if (nameOrPath.size() < 5 || nameOrPath.substr(nameOrPath.size() - 5) != ".json") {
    std::string known;
    for (const Hardware &h : hardwarePresets()) known += (known.empty() ? "" : ", ") + h.name;
    diags.error("unknown device '" + nameOrPath + "' (presets: " + known + "; or a .json file)");
    return std::nullopt;
  }
  std::ifstream in(nameOrPath);
  if (!in) {
    diags.error("cannot open '" + nameOrPath + "'");
    return std::nullopt;
  }
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    Hardware h;
    if (j.contains("base")) {
      std::optional<Hardware> base = loadHardware(j["base"].get<std::string>(), diags);
      if (!base) return std::nullopt;
      h = *base;
    } else {
      h = gpu("custom", 100 * kT, 0, 10 * kT, 16, 1000, 100, 10, "user file");
    }
    h.source = nameOrPath;
    if (!applyJson(h, j, nameOrPath, diags)) return std::nullopt;
    return h;
  } catch (const std::exception &e) {
    diags.error(e.what(), nameOrPath);
    return std::nullopt;
  }
}

DeviceParams hardwareDeviceParams(const Hardware &hw, const Mesh &mesh) {
  DeviceParams p;
  p.name = hw.name;
  p.peakFlopsByType = hw.peakFlops;
  auto it = hw.peakFlops.find("bf16");
  p.peakFlopsDefault = it != hw.peakFlops.end() ? it->second : 1e12;
  p.hbmBandwidth = hw.hbmBandwidth;
  p.hbmCapacity = hw.hbmCapacity;
  p.hbmEfficiency = hw.hbmEfficiency;
  p.kernelLaunchSeconds = hw.kernelLaunchSeconds;
  p.matmul = hw.matmul;
  p.allReduceCombineBytes = p.allGatherCombineBytes = p.reduceScatterCombineBytes = hw.combineThresholdBytes;
  LinkParams intraLink = hw.intraNode, interLink = hw.interNode;
  intraLink.bandwidth *= hw.intraNodeAchieved;
  interLink.bandwidth *= hw.interNodeAchieved;
  p.defaultLink = interLink;
  // Minor axes first: they share a node while their product fits in it.
  // An axis that leaves the node still has its neighbours within a node on
  // NVLink: a ring over it crosses the network once per node it spans, so
  // its per-step latency is the mean of the hops (NCCL's rings do the same).
  int64_t inNode = 1;
  for (size_t i = mesh.axes.size(); i-- > 0;) {
    const MeshAxis &a = mesh.axes[i];
    bool intra = inNode * a.size <= hw.devicesPerNode;
    LinkParams link = intra ? intraLink : interLink;
    if (!intra && a.size > 1) {
      int64_t perNode = std::max<int64_t>(1, hw.devicesPerNode / std::max<int64_t>(1, inNode));
      double nodes = double(a.size) / double(std::min(perNode, a.size));
      double hops = double(a.size - 1);
      link.latency = ((hops + 1 - nodes) * intraLink.latency + nodes * interLink.latency) / hops;
      link.latency = std::min(link.latency, interLink.latency);
    }
    inNode *= a.size;
    p.axisLinks[a.name] = link;
  }
  return p;
}

}  // namespace autopart
