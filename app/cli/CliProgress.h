#pragma once
// Progress on stderr for terminal use (a line per step of >= 5 %), cancelled by Ctrl-C.
#include <mutex>
#include <string>

#include "core/jobs/ProgressSink.h"

namespace delineate::cli {

class CliProgress : public core::ProgressSink {
 public:
  CliProgress();
  void report(double fraction, std::string_view stage) override;
  bool cancelled() const override;

 private:
  std::mutex mutex_;
  bool enabled_;
  int lastPercent_ = -100;
  std::string lastStage_;
};

}  // namespace delineate::cli
