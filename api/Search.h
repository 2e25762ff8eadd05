// The automatic search (`autopart search`, `autopart.search`): each chosen
// method (search/SearchMethod.h) plans the program on one cost model, memory
// levers are tried when no plan fits (search/LeverSearch.h), and the report
// compares them: step time, peak memory, whether it fits, search time. With
// `annotate`, the first method's plan is also written into the program and
// given as PartitionSpecs (as `autopart plan` gives them).
//
//   SearchRequest r;  r.program = {text, "gpt.mlir"};  r.mesh = "data=8,model=4";
//   r.budget.seconds = 5;  r.annotate = true;
//   SearchResult s = searchProgram(r, diags);
//   s.report -> {"mesh": "<[\"data\"=8, \"model\"=4]>", "chosen": "mcts",
//                "results": [{"method": "mcts", "step_seconds": 0.0021, "fits": true, ...}], ...}
//   s.text   -> the program with the mcts plan's sdy.sharding entries
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/Program.h"
#include "search/SearchMethod.h"

namespace autopart {

struct SearchRequest {
  ProgramText program;
  std::string mesh;                  // e.g. data=8,model=4 (empty: the program's sdy.mesh)
  std::string device = "h100-80gb";  // preset (autopart devices) or a JSON file
  std::string method = "mcts";       // mcts | exhaustive | ... | expert | baseline | all, comma-separated
  std::string function;              // entry function (empty: main)
  SearchBudget budget;               // seconds, iterations, seed, threads, progress...
  std::string levers = "auto";       // auto | none | remat:full,microbatch:8
  bool annotate = false;             // the first method's plan as text and specs
  bool reprint = false;              // MLIR's style instead of the input's text
  bool propagate = true;             // complete the input's shardings as XLA would first
  // What happens to the input\'s shardings when `mesh` replaces its own mesh:
  // error (empty) | keep | map | drop (api/InputShardings.h).
  std::string inputShardings;
};

struct SearchResult {
  bool ok = false;
  int failure = 1;            // the CLI's exit code when not ok (2: no plan to write, 3: internal error)
  nlohmann::json report;      // what `autopart search --json` prints
  std::string text;           // with annotate: the first method's plan
  nlohmann::json specs;       // with annotate: {"mesh", "in_specs", "out_specs"}
  std::vector<Note> notes;
};

// Whether `method` names known methods (else an error "--method: ...").
bool searchMethodsValid(const std::string &method, Diagnostics &diags);

// Errors go to `diags`; unlocated ones name their option ("--method: ...").
SearchResult searchProgram(const SearchRequest &request, Diagnostics &diags);

// The report as the CLI prints it without --json.
std::string formatSearchReport(const nlohmann::json &report);

}  // namespace autopart
