#include "api/Report.h"

#include "report/HtmlReport.h"
#include "asm/Parser.h"

namespace autopart {

std::optional<std::string> renderReport(const ReportRequest &request, Diagnostics &diags) {
  std::optional<SimulatedProgram> p = simulateProgramKeeping(request.simulate, diags);
  if (!p) return std::nullopt;
  HtmlReportInput in;
  in.module = p->module.get();
  in.shardings = &p->shardings;
  in.simulation = std::move(p->report);
  in.search = request.search;
  in.title = request.title.empty() ? request.simulate.program.fileName : request.title;
  return renderHtmlReport(in);
}

bool isSearchReport(const nlohmann::json &j) {
  return j.is_object() && j.contains("results") && j["results"].is_array();
}

nlohmann::json readSearchReport(const std::string &path, Diagnostics &diags) {
  std::string text;
  if (!readFile(path, text, diags)) return nullptr;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !isSearchReport(j)) {
    diags.error("not the JSON object `autopart search --json` prints (an object with a \"results\" array)", path);
    return nullptr;
  }
  return j;
}

}  // namespace autopart
