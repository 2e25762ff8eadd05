// Running a whole module: which functions to evaluate, their inputs, and the
// assertions counted over the run. `autopart run` and the tests call it.
//
//   runModule(m, {.entry = ""})   // `main` if there is one, else every
//                                 // function without arguments (the form of
//                                 // StableHLO's interpreter tests)
//   -> RunResult{checksTotal 3, checksPassed 3, functions [...]}
#pragma once

#include <string>
#include <vector>

#include "exec/Interpreter.h"

namespace autopart::exec {

struct RunOptions {
  std::string entry;              // empty: see the file comment
  std::string inputs = "random";  // "random" or "zeros" for entry arguments
  uint64_t seed = 0;
  // Argument values given by the caller (--inputs FILE.npz), in order; they
  // replace random/zeros and must match the entry's argument types.
  std::vector<TensorPtr> args;
};

struct FunctionRun {
  OpId func = kNone;
  std::string name;
  std::vector<TensorPtr> results;
  bool failed = false;       // stopped by an error
  OpId errorOp = kNone;      // where (kNone: the function itself)
  std::string error;
};

struct RunResult {
  int checksTotal = 0;   // check ops in the module (static count)
  int checksPassed = 0;
  std::vector<CheckFailure> failures;
  std::vector<FunctionRun> functions;
  bool ok() const;
};

// Whether `op` is an assertion (check.* or custom_call @check.*).
bool isCheckOp(const Module &m, OpId op);

RunResult runModule(const Module &m, const RunOptions &opts);

// Random values for an argument type: floats normal(0, 1), integers in
// [-10, 10] (unsigned [0, 10]), booleans fair; deterministic in `seed`.
TensorPtr randomTensor(const TypeTable &types, TypeId t, uint64_t seed);

}  // namespace autopart::exec
