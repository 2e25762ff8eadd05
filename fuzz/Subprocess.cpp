#include "fuzz/Subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace autopart {

ProcessResult runProcess(const std::vector<std::string> &argv, double seconds, const std::string &stderrPath) {
  ProcessResult r;
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    r.stderrText = "fork failed";
    return r;
  }
  if (pid == 0) {
    // A group of its own, so that a timeout kills what it started too.
    setpgid(0, 0);
    int out = open("/dev/null", O_WRONLY);
    int err = open(stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(127);
    dup2(out, 1);
    dup2(err, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  struct rusage usage {};
  // Polling with a short sleep: the runs last milliseconds to seconds, and
  // a SIGCHLD handler would be process-wide state for a small gain.
  auto nap = std::chrono::microseconds(200);
  while (true) {
    pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      r.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds(20000));
  }
  r.cpuSeconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  if (!r.timedOut) {
    if (WIFSIGNALED(status))
      r.signal = WTERMSIG(status);
    else
      r.exitCode = WEXITSTATUS(status);
  }
  std::ifstream in(stderrPath);
  std::stringstream ss;
  ss << in.rdbuf();
  r.stderrText = ss.str();
  return r;
}

}  // namespace autopart
