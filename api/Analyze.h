// The named-dimension analysis of a program as a report, the one `autopart
// analyze --json` prints and `autopart.analyze` returns in Python: how many
// ops, tensor dimensions, names and conflicts, the decision space before and
// after naming (log10), the names covering the most bytes, every conflict
// with its location and the two ways to resolve it.
//
//   AnalyzeRequest r;  r.program = {text, "mlp.mlir"};  r.mesh = "data=8,model=4";
//   analyzeProgram(r, diags)->report
//     -> {"file": "mlp.mlir", "ops": 9, "names": 4, "conflicts": 0, "mesh_axes": 2,
//         "log10_space_before": 5.4, "log10_space_after": 2.4, "top_names": [...], ...}
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/Program.h"

namespace autopart {

struct AnalyzeRequest {
  ProgramText program;
  std::string reportName;  // the report's "file" (empty: program.fileName)
  std::string mesh;        // sets the axis count (empty: the module's sdy.mesh, else 2)
  int top = 10;            // names listed in "top_names"
  bool conservative = false;
};

struct AnalyzeResult {
  nlohmann::json report;
  std::vector<Diagnostic> diagnostics;  // what the analysis noted on the way (not errors)
};

// Nullopt, with the reason in `diags`, when the program does not parse or
// the mesh is malformed.
std::optional<AnalyzeResult> analyzeProgram(const AnalyzeRequest &request, Diagnostics &diags);

// The report as the CLI prints it without --json.
std::string formatAnalyzeReport(const nlohmann::json &report);

}  // namespace autopart
