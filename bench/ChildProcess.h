#pragma once
// Shared by the benchmarks: each measurement runs in a fresh process, so that its peak RSS is its
// own and no cache of an earlier run helps it.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
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

// The options every volume benchmark takes: --dir CACHE (prepared data, kept between runs),
// --size XxYxZ (default 512x512x500) and --repeat N (default 3). `dir` comes back with the size
// appended, so that each size has its own cache.
struct VolumeBenchArgs {
  std::filesystem::path dir;
  std::array<std::size_t, 3> size{512, 512, 500};
  int repeat = 3;
};

inline VolumeBenchArgs parseVolumeBenchArgs(int argc, char** argv, const std::string& cacheName) {
  VolumeBenchArgs a;
  a.dir = std::filesystem::temp_directory_path() / cacheName;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dir" && i + 1 < argc) {
      a.dir = argv[++i];
    } else if (arg == "--size" && i + 1 < argc) {
      std::sscanf(argv[++i], "%zux%zux%zu", &a.size[0], &a.size[1], &a.size[2]);
    } else if (arg == "--repeat" && i + 1 < argc) {
      a.repeat = std::stoi(argv[++i]);
    }
  }
  a.dir /=
      std::to_string(a.size[0]) + "x" + std::to_string(a.size[1]) + "x" + std::to_string(a.size[2]);
  return a;
}

// Runs this benchmark again as `self --child what dir` and parses the JSON object it prints on
// stdout, adding "ok": true; {"ok": false} when it failed or printed nothing.
inline nlohmann::json runJsonChild(const std::string& self, const std::string& what,
                                   const std::filesystem::path& dir) {
  int fds[2];
  if (::pipe(fds) != 0) {
    return {{"ok", false}};
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::execl(self.c_str(), self.c_str(), "--child", what.c_str(), dir.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) {
    out.append(buf, std::size_t(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.empty()) {
    return {{"ok", false}};
  }
  nlohmann::json r = nlohmann::json::parse(out, nullptr, false);
  if (!r.is_object()) {
    return {{"ok", false}};
  }
  r["ok"] = true;
  return r;
}

// Resident memory of this process now, in MB (/proc/self/statm).
inline double rssMb() {
  long pages = 0, resident = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) {
      resident = 0;
    }
    std::fclose(f);
  }
  return double(resident) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// Peak resident memory of this process so far, in MB.
inline double peakRssMb() {
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

}  // namespace delineate::bench
