// autopart._autopart: the api stage (api/) for Python. Each function takes
// the program text and plain options and returns a dict whose "report" is
// the JSON text the CLI prints with --json (the Python package parses it, so
// its dicts equal the CLI's), plus what else the request produced (annotated
// text, partition specs) and the diagnostics noted on the way. A failed
// request raises autopart.Error (python/autopart/_errors.py) built from its
// diagnostics:
//
//   _autopart.analyze("func.func @main(", "x.mlir", "", 10, False)
//   -> autopart.Error("x.mlir:1:16: error: expected ...", file="x.mlir", line=1, col=16)
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "api/Analyze.h"
#include "api/Plan.h"
#include "api/Report.h"
#include "api/Search.h"
#include "api/Simulate.h"

namespace py = pybind11;

namespace autopart {
namespace {

// A request that failed, carried to the exception translator.
struct RequestFailed : std::exception {
  std::vector<Diagnostic> diagnostics;
  explicit RequestFailed(const Diagnostics &d) : diagnostics(d.all()) {}
  const char *what() const noexcept override { return "autopart request failed"; }
};

py::list diagnosticList(const std::vector<Diagnostic> &diags) {
  static const char *kSeverity[] = {"error", "warning", "remark", "note"};
  py::list out;
  for (const Diagnostic &d : diags) {
    py::dict e;
    e["severity"] = kSeverity[int(d.severity)];
    e["file"] = d.file;
    e["line"] = d.line;
    e["col"] = d.col;
    e["message"] = d.message;
    e["text"] = d.str();
    out.append(e);
  }
  return out;
}

py::dict analyze(std::string text, std::string fileName, std::string mesh, int top, bool conservative) {
  AnalyzeRequest request;
  request.program = {std::move(text), std::move(fileName)};
  request.mesh = std::move(mesh);
  request.top = top;
  request.conservative = conservative;
  Diagnostics diags;
  std::optional<AnalyzeResult> result;
  {
    py::gil_scoped_release unlocked;
    result = analyzeProgram(request, diags);
  }
  if (!result) throw RequestFailed(diags);
  py::dict out;
  out["report"] = result->report.dump();
  out["diagnostics"] = diagnosticList(result->diagnostics);
  return out;
}

py::list noteLines(const std::vector<Note> &notes) {
  py::list out;
  for (const Note &n : notes)
    if (!n.diagnostic) out.append(n.line);
  return out;
}

std::vector<Diagnostic> noteDiagnostics(const std::vector<Note> &notes) {
  std::vector<Diagnostic> out;
  for (const Note &n : notes)
    if (n.diagnostic) out.push_back(*n.diagnostic);
  return out;
}

// A Python progress callable for the search, called from its reporter
// thread. The callable stays alive in the caller's frame for the whole call,
// so the callback holds it by pointer: the std::function is copied with the
// GIL released, which must not touch reference counts. The first exception
// it raises is kept and raised when the search returns; later calls are
// skipped.
struct ProgressState {
  PyObject *callable = nullptr;
  std::optional<py::error_already_set> error;
};

ProgressCallback progressCallback(const std::shared_ptr<ProgressState> &state) {
  if (!state->callable) return nullptr;
  return [state](const SearchProgress &p) {
    py::gil_scoped_acquire locked;
    if (state->error) return;
    try {
      py::dict d;
      d["iterations"] = p.iterations;
      d["best_step_seconds"] = p.bestStepSeconds;
      d["best_peak_bytes"] = p.bestPeakBytes;
      d["best_fits"] = p.bestFits;
      d["seconds"] = p.seconds;
      d["phase"] = p.phase;
      py::handle(state->callable)(d);
    } catch (py::error_already_set &e) {
      state->error.emplace(std::move(e));
    }
  };
}

std::shared_ptr<ProgressState> progressState(const py::object &progress) {
  auto state = std::make_shared<ProgressState>();
  if (!progress.is_none()) state->callable = progress.ptr();
  return state;
}

void raiseProgressError(ProgressState &state) {
  if (state.error) {
    py::error_already_set e = std::move(*state.error);
    state.error.reset();
    throw e;
  }
}

py::dict simulate(std::string text, std::string fileName, std::string mesh, std::string device, int top,
                  std::vector<std::string> ablate, double overlap, bool syncCollectives, double unknownTrips,
                  double peakTflops, double hbmGbps, double linkGbps, bool propagate, std::string inputShardings) {
  SimulateRequest request;
  request.program = {std::move(text), std::move(fileName)};
  request.mesh = std::move(mesh);
  request.device = std::move(device);
  request.top = top;
  request.ablate = std::move(ablate);
  request.overlap = overlap;
  request.syncCollectives = syncCollectives;
  request.unknownTrips = unknownTrips;
  request.peakTflops = peakTflops;
  request.hbmGbps = hbmGbps;
  request.linkGbps = linkGbps;
  request.propagate = propagate;
  request.inputShardings = inputShardings;
  Diagnostics diags;
  std::optional<SimulateResult> result;
  {
    py::gil_scoped_release unlocked;
    result = simulateProgram(request, diags);
  }
  if (!result) throw RequestFailed(diags);
  py::dict out;
  out["report"] = result->report.dump();
  out["diagnostics"] = py::list();
  return out;
}

std::string report(std::string text, std::string fileName, std::string mesh, std::string device, int top,
                   std::string searchJson, std::string title, bool propagate, std::string inputShardings) {
  ReportRequest request;
  request.simulate.program = {std::move(text), std::move(fileName)};
  request.simulate.mesh = std::move(mesh);
  request.simulate.device = std::move(device);
  request.simulate.top = top;
  request.simulate.propagate = propagate;
  request.simulate.inputShardings = inputShardings;
  request.title = std::move(title);
  Diagnostics diags;
  if (!searchJson.empty()) {
    request.search = nlohmann::json::parse(searchJson, nullptr, false);
    if (request.search.is_discarded() || !isSearchReport(request.search)) {
      diags.error("search: not the report `autopart.search` returns (a dict with \"results\")");
      throw RequestFailed(diags);
    }
  }
  std::optional<std::string> page;
  {
    py::gil_scoped_release unlocked;
    page = renderReport(request, diags);
  }
  if (!page) throw RequestFailed(diags);
  return *page;
}

py::dict plan(std::string text, std::string fileName, std::string mesh, std::string tactics, std::string device,
              uint64_t seed, double timeBudget, int64_t iterations, bool propagate, std::string inputShardings, bool gspmd, bool reprint,
              bool simulate, std::string function, const py::object &progress) {
  PlanRequest request;
  request.program = {std::move(text), std::move(fileName)};
  request.mesh = std::move(mesh);
  request.tactics = std::move(tactics);
  request.device = std::move(device);
  request.autoBudget.seed = seed;
  request.autoBudget.seconds = timeBudget;
  request.autoBudget.iterations = iterations;
  request.propagate = propagate;
  request.inputShardings = inputShardings;
  request.gspmd = gspmd;
  request.reprint = reprint;
  request.simulate = simulate;
  request.function = std::move(function);
  std::shared_ptr<ProgressState> state = progressState(progress);
  request.autoBudget.onProgress = progressCallback(state);
  Diagnostics diags;
  PlanResult result;
  {
    py::gil_scoped_release unlocked;
    result = planProgram(request, diags);
    request.autoBudget.onProgress = nullptr;
  }
  raiseProgressError(*state);
  if (!result.ok || diags.hasErrors()) throw RequestFailed(diags);
  py::dict out;
  out["text"] = result.text;
  out["specs"] = result.specs.dump();
  out["tactics"] = result.tactics.dump();
  out["report"] = result.simulation.dump();
  out["notes"] = noteLines(result.notes);
  out["diagnostics"] = diagnosticList(noteDiagnostics(result.notes));
  return out;
}

py::dict search(std::string text, std::string fileName, std::string mesh, std::string device, std::string method,
                double timeBudget, int64_t iterations, uint64_t seed, int threads, std::string levers,
                double exploration, std::string rollout, int64_t annealSteps, int refineStarts, bool portfolio,
                bool propagate, std::string inputShardings, bool reprint, std::string function, const py::object &progress) {
  SearchRequest request;
  request.program = {std::move(text), std::move(fileName)};
  request.mesh = std::move(mesh);
  request.device = std::move(device);
  request.method = std::move(method);
  request.budget.seconds = timeBudget;
  request.budget.iterations = iterations;
  request.budget.seed = seed;
  request.budget.threads = threads;
  request.budget.exploration = exploration;
  if (rollout != "random" && rollout != "greedy") {
    Diagnostics diags;
    diags.error("--rollout: '" + rollout + "' is neither random nor greedy");
    throw RequestFailed(diags);
  }
  request.budget.greedyRollouts = rollout == "greedy";
  request.budget.annealSteps = annealSteps;
  request.budget.refineStarts = refineStarts;
  request.budget.portfolio = portfolio;
  request.levers = std::move(levers);
  request.annotate = true;
  request.reprint = reprint;
  request.propagate = propagate;
  request.inputShardings = inputShardings;
  request.function = std::move(function);
  std::shared_ptr<ProgressState> state = progressState(progress);
  request.budget.onProgress = progressCallback(state);
  Diagnostics diags;
  SearchResult result;
  {
    py::gil_scoped_release unlocked;
    if (searchMethodsValid(request.method, diags)) result = searchProgram(request, diags);
    request.budget.onProgress = nullptr;
  }
  raiseProgressError(*state);
  if (!result.ok) throw RequestFailed(diags);
  py::dict out;
  out["text"] = result.text;
  out["specs"] = result.specs.dump();
  out["report"] = result.report.dump();
  out["notes"] = noteLines(result.notes);
  out["diagnostics"] = diagnosticList(noteDiagnostics(result.notes));
  return out;
}

}  // namespace
}  // namespace autopart

PYBIND11_MODULE(_autopart, m) {
  using namespace autopart;
  m.doc() = "autopart's library (api/) for the Python package; use `import autopart`.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const RequestFailed &e) {
      py::object cls = py::module_::import("autopart._errors").attr("Error");
      py::object error = cls.attr("from_diagnostics")(diagnosticList(e.diagnostics));
      PyErr_SetObject(cls.ptr(), error.ptr());
    }
  });
  m.def("analyze", &analyze, py::arg("text"), py::arg("file_name"), py::arg("mesh"), py::arg("top"),
        py::arg("conservative"));
  m.def("simulate", &simulate, py::arg("text"), py::arg("file_name"), py::arg("mesh"), py::arg("device"),
        py::arg("top"), py::arg("ablate"), py::arg("overlap"), py::arg("sync_collectives"),
        py::arg("unknown_trip_count"), py::arg("peak_tflops"), py::arg("hbm_gbps"), py::arg("link_gbps"),
        py::arg("propagate"), py::arg("input_shardings"));
  m.def("report", &report, py::arg("text"), py::arg("file_name"), py::arg("mesh"), py::arg("device"),
        py::arg("top"), py::arg("search"), py::arg("title"), py::arg("propagate"), py::arg("input_shardings"));
  m.def("plan", &plan, py::arg("text"), py::arg("file_name"), py::arg("mesh"), py::arg("tactics"),
        py::arg("device"), py::arg("seed"), py::arg("time_budget"), py::arg("iterations"), py::arg("propagate"), py::arg("input_shardings"),
        py::arg("gspmd"), py::arg("reprint"), py::arg("simulate"), py::arg("function"), py::arg("progress"));
  m.def("search", &search, py::arg("text"), py::arg("file_name"), py::arg("mesh"), py::arg("device"),
        py::arg("method"), py::arg("time_budget"), py::arg("iterations"), py::arg("seed"), py::arg("threads"),
        py::arg("levers"), py::arg("exploration"), py::arg("rollout"), py::arg("anneal_steps"),
        py::arg("refine_starts"), py::arg("portfolio"), py::arg("propagate"), py::arg("input_shardings"), py::arg("reprint"),
        py::arg("function"), py::arg("progress"));
}
