// Parser of StableHLO / Shardy MLIR text (pretty and generic forms) into the
// autopart IR. Errors come back as `file:line:col: error: <what was expected>`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

struct ParseError {
  std::string message;  // what was expected
  std::string full;     // `file:line:col: error: <message>`
  uint32_t line = 0, col = 0;
  // The errors that follow the first, one per construct the failure is
  // inside, as MLIR reports them ("failed to parse Sdy_TensorSharding
  // parameter 'dim_shardings' ..."), innermost first.
  std::vector<ParseError> context;
};

// Parses `text` (a module, or top-level ops without `module`); on failure
// returns null and fills `error`.
std::unique_ptr<Module> parseModule(std::string text, const std::string &fileName,
                                    ParseError *error);

// Reads a file; "-" is stdin.
bool readFile(const std::string &path, std::string &out, Diagnostics &diags);

}  // namespace autopart
