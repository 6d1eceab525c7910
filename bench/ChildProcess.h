#pragma once
// Shared by the benchmarks: each measurement runs in a fresh process, so that its peak RSS is its
// own and no cache of an earlier run helps it.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace delineate::bench {

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct ChildRun {
  double seconds = 0;  // wall time from fork to exit
  double peakMb = 0;   // the child's peak resident set
  bool ok = false;     // exited with status 0
};

// Runs `argv` (stdout to /dev/null) with `env` added, and waits for it.
inline ChildRun runMeasured(const std::vector<std::string>& argv,
                            const std::map<std::string, std::string>& env = {}) {
  const double t0 = now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& [k, v] : env) {
      ::setenv(k.c_str(), v.c_str(), 1);
    }
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, STDOUT_FILENO);
    std::vector<char*> args;
    for (const auto& a : argv) {
      args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage ru {};
  ::wait4(pid, &status, 0, &ru);
  ChildRun r;
  r.seconds = now() - t0;
  r.peakMb = double(ru.ru_maxrss) / 1024.0;
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return r;
}

// Runs `work` in a forked child and waits (data preparation, so that the parent stays small
// for the measured children that follow). Returns whether it exited normally with 0.
inline bool runInChild(const std::function<void()>& work) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    work();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace delineate::bench
