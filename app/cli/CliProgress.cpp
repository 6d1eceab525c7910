#include "CliProgress.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace delineate::cli {

namespace {
std::atomic<bool> gInterrupted{false};
extern "C" void onInterrupt(int) {
  gInterrupted.store(true);
}
}  // namespace

CliProgress::CliProgress() : enabled_(::isatty(STDERR_FILENO) != 0) {
  std::signal(SIGINT, onInterrupt);
}

void CliProgress::report(double fraction, std::string_view stage) {
  std::lock_guard lock(mutex_);
  const int percent = static_cast<int>(fraction * 100.0 + 0.5);
  if (!enabled_ || (percent - lastPercent_ < 5 && stage == lastStage_ && percent != 100)) {
    return;
  }
  lastPercent_ = percent;
  lastStage_ = std::string(stage);
  std::fprintf(stderr, "\r%3d%% %-40.40s", percent, lastStage_.c_str());
  if (percent >= 100) {
    std::fputc('\n', stderr);
  }
  std::fflush(stderr);
}

bool CliProgress::cancelled() const {
  return gInterrupted.load();
}

}  // namespace delineate::cli
