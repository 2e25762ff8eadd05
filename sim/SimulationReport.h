// The simulation report of a sharded program: what `autopart simulate`
// prints, as a JSON value any command can build (e.g. `autopart plan
// --report` on the plan it just produced) without going through a file.
//
// Example (2 dots under FSDP on d=8, abridged):
//   {"device": "h100-80gb", "devices": 8, "mesh": "[\"d\"=8]",
//    "step_seconds": 4.1e-06, "compute_seconds": 1.6e-06,
//    "communication_seconds": 2.5e-06, "roofline_fraction": 0.04,
//    "top_collectives": [{"kind": "all-gather", "axes": "{\"d\"}",
//                         "bytes": 131072, "where": "f.mlir:5:8", ...}],
//    "memory": {"peak_bytes": 262144, "live_at_peak": [...], ...}}
// Field meanings and formulas: docs/cost-model.md.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/Simulator.h"

namespace autopart {

struct ReportOptions {
  SimOptions sim;
  // How many ops, collectives and live buffers to list.
  int top = 10;
};

// Simulates `m` with `shardings` on `device` and returns the report: step
// time split into compute and communication, the `top` costliest ops and
// collectives (weighted by executions) with source locations, peak memory
// with what is live there (collective buffers counted while their op runs),
// and roofline fraction = global FLOPs / (devices x peak) / step time.
nlohmann::json simulationReport(const Module &m, const ShardingMap &shardings, const DeviceParams &device,
                                const ReportOptions &options = {});

// The human-readable form of a simulationReport() value.
std::string formatSimulationReport(const nlohmann::json &report);

}  // namespace autopart
