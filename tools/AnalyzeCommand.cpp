// `autopart analyze FILE [--mesh data=8,model=4] [--json] [--top N]`: the
// named-dimension analysis of a program: how many ops, tensor dimensions,
// names and conflicts, the decision space before and after naming (log10),
// the names covering the most bytes, and every conflict with its location.
// The analysis and its report: api/Analyze.h.
#include <iostream>

#include "api/Analyze.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"

namespace autopart {
namespace {

struct AnalyzeOptions {
  std::string file;
  std::string mesh;
  bool json = false;
  int top = 10;
  bool conservative = false;
};

int runAnalyze(const AnalyzeOptions &o) {
  std::optional<ProgramText> program = readProgram(o.file);
  if (!program) return 1;
  AnalyzeRequest request;
  request.program = std::move(*program);
  request.reportName = o.file;
  request.mesh = o.mesh;
  request.top = o.top;
  request.conservative = o.conservative;
  Diagnostics diags;
  std::optional<AnalyzeResult> result = analyzeProgram(request, diags);
  if (!result) {
    printDiagnostics(diags, "autopart analyze");
    return 1;
  }
  for (const Diagnostic &d : result->diagnostics) std::cerr << d.str() << "\n";
  if (o.json) std::cout << result->report.dump(2) << "\n";
  else std::cout << formatAnalyzeReport(result->report);
  return 0;
}

CommandRegistration reg("analyze", "Named-dimension analysis: names, conflicts, decision space",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<AnalyzeOptions>();
                          app.add_option("file", o->file, "StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_option("--mesh", o->mesh, "Mesh axes, e.g. data=8,model=4 (sets the axis count)");
                          app.add_flag("--json", o->json, "Machine-readable output");
                          app.add_option("--top", o->top, "How many names to list");
                          app.add_flag("--conservative", o->conservative, "Rules in conservative mode");
                          return [o] { return runAnalyze(*o); };
                        });

}  // namespace
}  // namespace autopart
