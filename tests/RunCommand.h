#pragma once
// Runs a shell command for the tests that drive the real executables: its exit status (-1 when it
// did not exit normally) and, when asked, what it printed on stdout and stderr together.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace delineate::test {

inline int runCommand(const std::string& command, std::string* output = nullptr) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) {
    return -1;
  }
  char line[4096];
  std::string text;
  while (std::fgets(line, sizeof line, pipe)) {
    text += line;
  }
  const int status = ::pclose(pipe);
  if (output) {
    *output = text;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace delineate::test
