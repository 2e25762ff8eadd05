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
}
