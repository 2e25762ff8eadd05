// `autopart report FILE [--mesh data=8,model=4] [--device NAME] [--top N]
// [--search SEARCH.json] [--title T] [-o plan.html]`: the plan of an
// annotated program (what `autopart plan` writes) as one self-contained HTML
// page: mesh, step-time breakdown, memory over the step, the costliest
// kernels and collectives linked to their source lines, argument shardings
// and, with --search (the JSON of `autopart search --json`), the search
// methods side by side. The page is report/HtmlReport; docs/report.md says
// where each number comes from.
#include <iostream>

#include "asm/Parser.h"
#include "propagation/CompleteShardings.h"
#include "report/HtmlReport.h"
#include "sim/Hardware.h"
#include "sim/SimulationReport.h"
#include "support/AtomicFile.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"
#include "tools/MeshSpec.h"

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
};

// The JSON of `autopart search --json`, or null with the reason in `diags`.
nlohmann::json readSearchJson(const std::string &path, Diagnostics &diags) {
  std::string text;
  if (!readFile(path, text, diags)) return nullptr;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("results") || !j["results"].is_array()) {
    diags.error("not the JSON object `autopart search --json` prints (an object with a \"results\" array)", path);
    return nullptr;
  }
  return j;
}

int runReport(const ReportCommandOptions &o) {
  const char *tool = "autopart report";
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  // The program XLA runs, as `autopart simulate` prices it: Shardy's
  // propagation completes the input's shardings first.
  if (!o.noPropagate) {
    Diagnostics diags;
    if (!completeShardingsAsXla(*m, diags)) {
      printDiagnostics(diags, tool);
      return 1;
    }
  }
  ShardingMap shardings = ShardingMap::fromModule(*m);
  if (!o.mesh.empty()) {
    Diagnostics diags;
    std::optional<Mesh> parsed = parseMeshSpec(o.mesh, diags);
    if (!parsed) {
      printDiagnostics(diags, tool);  // (the reason names --mesh itself)
      return 1;
    }
    std::string name = shardings.meshes().size() == 1 ? shardings.meshes().begin()->first : "mesh";
    shardings.addMesh(name, *parsed);
  }
  Diagnostics diags;
  std::optional<Hardware> hw = loadHardware(o.device, diags);
  if (!hw) {
    printDiagnostics(diags, tool, "--device");
    return 1;
  }
  HtmlReportInput in;
  if (!o.search.empty()) {
    in.search = readSearchJson(o.search, diags);
    if (in.search.is_null()) {
      printDiagnostics(diags, tool, "--search");
      return 1;
    }
  }
  const Mesh *largest = nullptr;
  for (const auto &[name, mesh] : shardings.meshes())
    if (!largest || mesh.numDevices() > largest->numDevices()) largest = &mesh;
  DeviceParams device = hardwareDeviceParams(*hw, largest ? *largest : Mesh{});
  ReportOptions reportOptions;
  reportOptions.top = o.top;
  in.simulation = simulationReport(*m, shardings, device, reportOptions);
  in.module = m.get();
  in.shardings = &shardings;
  in.title = o.title.empty() ? (o.file == "-" ? "stdin" : o.file) : o.title;
  if (!writeFileAtomic(o.output, renderHtmlReport(in), diags)) {
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
                          app.add_flag("--no-propagate", o->noPropagate,
                                       "Report the shardings as written instead of completing them with Shardy's "
                                       "propagation first, as XLA does (and autopart simulate)");
                          app.add_option("-o,--output", o->output, "Output HTML file ('-': stdout)");
                          return [o] { return runReport(*o); };
                        });

}  // namespace
}  // namespace autopart
