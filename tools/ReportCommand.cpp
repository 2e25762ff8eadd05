// `autopart report FILE [--mesh data=8,model=4] [--device NAME] [--top N]
// [--search SEARCH.json] [--title T] [-o plan.html]`: the plan of an
// annotated program (what `autopart plan` writes) as one self-contained HTML
// page: mesh, step-time breakdown, memory over the step, the costliest
// kernels and collectives linked to their source lines, argument shardings
// and, with --search (the JSON of `autopart search --json`), the search
// methods side by side. The page is report/HtmlReport; docs/report.md says
// where each number comes from.
#include <iostream>

#include "api/Report.h"
#include "support/AtomicFile.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"

namespace autopart {
namespace {

struct ReportCommandOptions {
  std::string file;
  std::string mesh;
  std::string device = "h100-80gb";
  std::string search;
  std::string title;
  std::string output = "-";
  int top = 15;
  bool noPropagate = false;
  std::string inputShardings;
};

int runReport(const ReportCommandOptions &o) {
  const char *tool = "autopart report";
  std::optional<ProgramText> program = readProgram(o.file);
  if (!program) return 1;
  ReportRequest request;
  request.simulate.program = std::move(*program);
  request.simulate.mesh = o.mesh;
  request.simulate.device = o.device;
  request.simulate.top = o.top;
  request.simulate.propagate = !o.noPropagate;
  request.simulate.inputShardings = o.inputShardings;
  request.title = o.title.empty() ? (o.file == "-" ? "stdin" : o.file) : o.title;
  Diagnostics diags;
  if (!o.search.empty()) {
    request.search = readSearchReport(o.search, diags);
    if (request.search.is_null()) {
      printDiagnostics(diags, tool, "--search");
      return 1;
    }
  }
  std::optional<std::string> page = renderReport(request, diags);
  if (!page) {
    printDiagnostics(diags, tool);
    return 1;
  }
  if (!writeFileAtomic(o.output, *page, diags)) {
    printDiagnostics(diags, tool, "-o");
    return 1;
  }
  return 0;
}

CommandRegistration reg("report", "The plan of an annotated program as a self-contained HTML page",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<ReportCommandOptions>();
                          app.add_option("file", o->file, "Annotated StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_option("--mesh", o->mesh, "Mesh axes, e.g. data=8,model=4 (default: sdy.mesh of the input)");
                          app.add_option("--device", o->device, "Hardware preset (autopart devices) or JSON file");
                          app.add_option("--top", o->top, "How many kernels, ops, collectives and buffers to list");
                          app.add_option("--search", o->search,
                                         "JSON of `autopart search --json` to show the methods side by side");
                          app.add_option("--title", o->title, "Page heading (default: the input file)");
                          app.add_option("--input-shardings", o->inputShardings,
                                         "What to do with the input's shardings when --mesh replaces its mesh and they use axes it lacks: keep (--mesh contains the input's axes), map (rename them to --mesh axes of equal size), drop (plan from scratch); default: stop with an error")
                              ->check(CLI::IsMember({"keep", "map", "drop", "error"}));
                          app.add_flag("--no-propagate", o->noPropagate,
                                       "Report the shardings as written instead of completing them with Shardy's "
                                       "propagation first, as XLA does (and autopart simulate)");
                          app.add_option("-o,--output", o->output, "Output HTML file ('-': stdout)");
                          return [o] { return runReport(*o); };
                        });

}  // namespace
}  // namespace autopart
