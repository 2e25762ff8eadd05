// Subcommands of the `autopart` driver register themselves, one file each:
//
//   static CommandRegistration reg("stats", "Op histogram, bytes, FLOPs",
//       [](CLI::App &app) {
//         auto opts = std::make_shared<StatsOptions>();
//         app.add_option("file", opts->file)->required();
//         return [opts] { return runStats(*opts); };   // exit code
//       });
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/Program.h"
#include "support/Diagnostics.h"

namespace autopart {

using CommandRun = std::function<int()>;
using CommandSetup = std::function<CommandRun(CLI::App &)>;

struct CommandInfo {
  std::string name;
  std::string description;
  CommandSetup setup;
};

std::vector<CommandInfo> &commandRegistry();

struct CommandRegistration {
  CommandRegistration(std::string name, std::string description, CommandSetup setup) {
    commandRegistry().push_back({std::move(name), std::move(description), std::move(setup)});
  }
};

// Prints every diagnostic to stderr and clears them: located ones as
// `file:line:col: error: ...`, the others as `<tool>: error: <option>: ...`
// (tool: "autopart plan", option: "--device" or empty), so a user sees which
// command and which flag complained.
void printDiagnostics(Diagnostics &diags, const std::string &tool, const std::string &option = "");

// Prints what an api request noted (api/Program.h) to stderr: its own lines
// as they are, diagnostics as printDiagnostics does.
void printNotes(const std::vector<Note> &notes, const std::string &tool);

}  // namespace autopart
