// `autopart devices [--json]`: the hardware presets and their numbers.
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "sim/Hardware.h"
#include "tools/Command.h"

namespace autopart {
namespace {

int runDevices(bool json) {
  nlohmann::json all = nlohmann::json::array();
  auto linkJson = [](const LinkParams &l) {
    return nlohmann::json{{"bandwidth_gbps", l.bandwidth / 1e9},
                          {"latency_us", l.latency * 1e6},
                          {"tree_all_reduce", l.treeAllReduce}};
  };
  for (const Hardware &h : hardwarePresets()) {
    nlohmann::json peak = nlohmann::json::object();
    for (auto &[t, f] : h.peakFlops) peak[t] = f / 1e12;
    all.push_back({{"name", h.name},
                   {"kind", h.kind},
                   {"peak_tflops", peak},
                   {"hbm_gb", h.hbmCapacity / 1e9},
                   {"hbm_gbps", h.hbmBandwidth / 1e9},
                   {"devices_per_node", h.devicesPerNode},
                   {"intra_node", linkJson(h.intraNode)},
                   {"inter_node", linkJson(h.interNode)},
                   {"source", h.source}});
  }
  if (json) {
    std::cout << all.dump(2) << "\n";
    return 0;
  }
  std::cout << std::left << std::setw(11) << "device" << std::right << std::setw(11) << "bf16 TF/s"
            << std::setw(10) << "HBM GB" << std::setw(11) << "HBM GB/s" << std::setw(13) << "fast GB/s"
            << std::setw(13) << "net GB/s" << "\n";
  for (const nlohmann::json &h : all)
    std::cout << std::left << std::setw(11) << h["name"].get<std::string>() << std::right << std::fixed
              << std::setprecision(0) << std::setw(11) << h["peak_tflops"]["bf16"].get<double>()
              << std::setprecision(1) << std::setw(10) << h["hbm_gb"].get<double>() << std::setprecision(0)
              << std::setw(11) << h["hbm_gbps"].get<double>() << std::setw(13)
              << h["intra_node"]["bandwidth_gbps"].get<double>() << std::setw(13)
              << h["inter_node"]["bandwidth_gbps"].get<double>() << "\n";
  std::cout << "(fast: NVLink within a node / ICI along a TPU axis, per direction; net: between "
               "nodes or slices; sources in docs/hardware.md)\n";
  return 0;
}

CommandRegistration reg("devices", "List the hardware presets", [](CLI::App &app) -> CommandRun {
  auto json = std::make_shared<bool>(false);
  app.add_flag("--json", *json, "Machine-readable output");
  return [json] { return runDevices(*json); };
});

}  // namespace
}  // namespace autopart
