// The plan report as one self-contained HTML page: the mesh drawn as a grid
// of devices, the step time split into compute and exposed / hidden
// communication, live memory over the step with its peak against the
// device's capacity and what is live there, the costliest kernels, ops and
// collectives with links to their source lines (the lines are embedded),
// every argument's sharding in a sortable table and, given the JSON of
// `autopart search --json`, the search methods side by side.
//
// Everything is drawn in C++ as HTML and SVG (the page reads whole without
// JavaScript); the inline script only sorts tables, opens source lines and
// checks the page (report/PageAssets.h). The inputs are also embedded, as
// JSON in <script type="application/json" id="autopart-data">.
//
//   HtmlReportInput in;
//   in.title = "gpt.mlir on data=2,model=4";
//   in.module = &m;                 // the annotated program
//   in.simulation = simulationReport(m, ShardingMap::fromModule(m), device);
//   writeFileAtomic("plan.html", renderHtmlReport(in), diags);
//
// What each number is and where it comes from: docs/report.md.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/ShardingMap.h"

namespace autopart {

struct HtmlReportInput {
  // The page's heading (e.g. the input file); empty: "autopart plan report".
  std::string title;
  // The program: its entry's arguments, the mesh, and the source lines the
  // report's locations point at (m.where). May be null: those parts are
  // left out.
  const Module *module = nullptr;
  // The plan's shardings of `module`; null: those written in the module
  // (ShardingMap::fromModule). Pass the map the simulation was run on.
  const ShardingMap *shardings = nullptr;
  // The function whose arguments are listed; kNone: `main`, else the first
  // function (the simulator's choice).
  OpId entry = kNone;
  // simulationReport() of the plan (sim/SimulationReport.h); null: no step,
  // memory or costliest sections.
  nlohmann::json simulation;
  // The object `autopart search --json` prints (mesh, device, results[],
  // chosen, levers, ...); null: no search section.
  nlohmann::json search;
};

// The page, as UTF-8 text. Never fails: missing or oddly typed JSON fields
// leave their part of the page empty.
std::string renderHtmlReport(const HtmlReportInput &in);

}  // namespace autopart
