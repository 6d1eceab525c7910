#pragma once
// The built-in sample, written once for all the tests of a test binary that only read it (the
// CLI tests of detect, hang and report): under the system temp folder, named after the test
// binary's modification time, so a rebuilt binary (perhaps with changed sample code) writes a
// fresh one and older ones are removed. ensureSampleAt() makes tests running in parallel share
// one copy. Tests must not write into it: their outputs go to a TempDir.
#include <filesystem>
#include <string>

#include "core/jobs/ProgressSink.h"
#include "core/sample/SampleWriter.h"

namespace delineate::test {

inline std::filesystem::path sharedSample() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const auto stamp = fs::last_write_time(exe, ec).time_since_epoch().count();
  const std::string prefix = "delineate-test-sample-" + exe.filename().string() + "-";
  const fs::path root = fs::temp_directory_path() / (prefix + std::to_string(stamp));
  for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.path() != root &&
        name.find(".lock") == std::string::npos && name.find(".partial") == std::string::npos) {
      fs::remove_all(entry.path(), ec);  // a sample of an older build of this binary
    }
  }
  core::NullProgress quiet;
  return core::sample::ensureSampleAt(root, quiet);
}

}  // namespace delineate::test
