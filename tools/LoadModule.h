// Reading an input program for a subcommand: file or stdin, parse errors as
// `file:line:col: error: ...` on stderr.
#pragma once

#include <memory>
#include <string>

#include "ir/Module.h"
#include "propagation/CompleteShardings.h"
#include "tactics/ApplySchedule.h"

namespace autopart {

std::unique_ptr<Module> loadModule(const std::string &path);

// The function a planning command works on (`wanted`, else `main`, else the
// first public one with a body), checked to have only static argument
// shapes. Prints `autopart COMMAND: error: ...` and returns kNone otherwise.
OpId findPlannableEntry(const Module &m, const std::string &wanted, const char *command);

// The shardings a plan of `func` starts from: the input's argument shardings
// after Shardy's propagation (propagation/CompleteShardings.h), as XLA would
// complete them, when `propagate`; else the input's argument shardings as
// written. Propagation runs on a second parse of the module, so `m` (and the
// program written from it) keeps only what the user wrote. False (errors in
// `diags`) when propagation fails.
bool seedInputShardings(const Module &m, OpId func, bool propagate, ShardingVector &state, Diagnostics &diags,
                        CompletionStats *stats = nullptr);

}  // namespace autopart
