// The fixed parts of the HTML report: its style sheet, the script that
// collects errors before anything else runs, and the script that sorts
// tables, opens source lines and checks the page. They are inline (the page
// loads nothing: its Content-Security-Policy forbids any fetch), plain
// ES5-style JavaScript with no library.
//
// The page's own check, for tests and curious readers, is written by the
// script into <pre id="self-check"> as JSON, e.g.
//   {"errors": [], "memory_points": 396, "memory_expected": 396,
//    "step_bar_widths": [250.1, 649.9], "argument_rows": 201,
//    "argument_expected": 201, "search_rows": 0, "search_expected": 0, "ok": true}
#pragma once

namespace autopart {

extern const char *const kReportCss;
// Goes first in <head>: records window errors, unhandled rejections and
// console.error calls in window.__autopartErrors.
extern const char *const kReportErrorTrap;
// Goes last in <body>: sortable tables (class "sortable", numeric cells
// carry data-v), the source-line viewer for links of class "loc", and the
// self-check, which reads its expectations from the JSON in
// <script id="autopart-data"> ("expect": memory_points, arguments, search).
extern const char *const kReportScript;

}  // namespace autopart
