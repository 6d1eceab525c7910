#pragma once
// Qt-free progress reporting for long jobs (ITK-SNAP's progress-delegate idea).
#include <string>
#include <string_view>

#include "core/jobs/CancelToken.h"

namespace delineate::core {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // fraction in [0, 1]; `stage` is a short human-readable phrase. Must be thread-safe.
  virtual void report(double fraction, std::string_view stage) = 0;
  virtual bool cancelled() const = 0;
  // Throws CancelledError when the job was cancelled.
  void throwIfCancelled() const;
};

// Reports nowhere; cancelled when its token is.
class NullProgress : public ProgressSink {
 public:
  NullProgress() = default;
  explicit NullProgress(CancelToken token) : token_(std::move(token)) {}
  void report(double, std::string_view) override {}
  bool cancelled() const override { return token_.cancelled(); }

 private:
  CancelToken token_;
};

// Maps a sub-task's [0, 1] onto [begin, end] of a parent sink.
class SubProgress : public ProgressSink {
 public:
  SubProgress(ProgressSink& parent, double begin, double end)
      : parent_(parent), begin_(begin), end_(end) {}
  void report(double fraction, std::string_view stage) override {
    parent_.report(begin_ + (end_ - begin_) * fraction, stage);
  }
  bool cancelled() const override { return parent_.cancelled(); }

 private:
  ProgressSink& parent_;
  double begin_;
  double end_;
};

}  // namespace delineate::core
