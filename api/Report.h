// The plan report as an HTML page (`autopart report`, `plan --html`,
// `search --html`, `autopart.report`): the program is simulated as
// `autopart simulate` prices it (api/Simulate.h) and drawn by
// report/HtmlReport.h, with the search's methods side by side when its
// report is given.
//
//   ReportRequest r;  r.simulate.program = {planText, "plan.mlir"};
//   r.simulate.device = "a100-80gb";  r.search = searchResult.report;
//   renderReport(r, diags) -> "<!DOCTYPE html><html>...</html>"
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "api/Simulate.h"

namespace autopart {

struct ReportRequest {
  SimulateRequest simulate;  // the annotated program and how to price it
  nlohmann::json search;     // what `autopart search --json` prints, or null
  std::string title;         // the page's heading (empty: the program's file name)
};

// The page, or nullopt with the reason in `diags` when the program, mesh or
// device is bad.
std::optional<std::string> renderReport(const ReportRequest &request, Diagnostics &diags);

// Whether `j` has the shape of what `autopart search --json` prints (an
// object with a "results" array), the part of it the page draws.
bool isSearchReport(const nlohmann::json &j);

// The JSON of `autopart search --json` read from `path`, or null with the
// reason in `diags`.
nlohmann::json readSearchReport(const std::string &path, Diagnostics &diags);

}  // namespace autopart
