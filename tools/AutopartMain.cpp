// `autopart`: the user-facing driver. Every subcommand lives in its own file
// under tools/ and registers itself (see tools/Command.h).
#include <algorithm>
#include <iostream>
#include <map>

#include "tools/Command.h"

int main(int argc, char **argv) {
  CLI::App app{"autopart: automatic partitioner for StableHLO programs"};
  app.require_subcommand(1);
  std::vector<autopart::CommandInfo> cmds = autopart::commandRegistry();
  std::sort(cmds.begin(), cmds.end(),
            [](const auto &a, const auto &b) { return a.name < b.name; });
  std::map<CLI::App *, autopart::CommandRun> runs;
  for (const autopart::CommandInfo &c : cmds) {
    CLI::App *sub = app.add_subcommand(c.name, c.description);
    runs[sub] = c.setup(*sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  for (auto &[sub, run] : runs)
    if (sub->parsed()) return run();
  return 1;
}
