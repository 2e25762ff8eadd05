// Runs a command as a child process with a time limit, the way a user's
// shell would, and reports how it ended: the sharding fuzzer judges
// autopart's binaries by their exit codes and stderr, not in-process, so a
// crash or a hang is seen as the user sees it.
//
//   runProcess({"build/bin/autopart-opt", "m.mlir"}, 30, "err.txt")
//   -> {exitCode 1, signal 0, timedOut false,
//       stderrText "m.mlir:3:5: error: ... unknown axis name: \"z\"\n"}
#pragma once

#include <string>
#include <vector>

namespace autopart {

struct ProcessResult {
  int exitCode = -1;     // valid when signal == 0 and !timedOut
  int signal = 0;        // the signal that ended it, 0 if it exited
  bool timedOut = false;  // killed after the time limit
  double cpuSeconds = 0;  // user + system time of the child (all its threads)
  std::string stderrText;
};

// Runs argv[0] with the arguments, stdout discarded and stderr captured
// through the file `stderrPath`. The child and its own children are killed
// when `seconds` pass.
ProcessResult runProcess(const std::vector<std::string> &argv, double seconds, const std::string &stderrPath);

}  // namespace autopart
