#pragma once
// A ProgressSink for jobs run off the GUI thread: cancelled through a CancelToken, and its
// reports throttled (at most one per interval, plus the final one) and delivered to a QObject on
// the GUI thread by queued invocation. Thread-safe.
#include <QObject>
#include <QPointer>
#include <chrono>
#include <functional>
#include <mutex>

#include "core/jobs/ProgressSink.h"

namespace delineate::app {

class QueuedProgressSink : public core::ProgressSink {
 public:
  using Deliver = std::function<void(double fraction, const QString& stage)>;

  // `deliver` runs on `receiver`'s thread; dropped when the receiver is gone.
  QueuedProgressSink(core::CancelToken token, QObject* receiver, Deliver deliver,
                     std::chrono::milliseconds interval = std::chrono::milliseconds(100));

  void report(double fraction, std::string_view stage) override;
  bool cancelled() const override { return token_.cancelled(); }
  // Number of reports delivered (not throttled away); for tests.
  int delivered() const;

 private:
  core::CancelToken token_;
  QPointer<QObject> receiver_;
  Deliver deliver_;
  std::chrono::milliseconds interval_;
  mutable std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
  bool any_ = false;
  int delivered_ = 0;
};

}  // namespace delineate::app
