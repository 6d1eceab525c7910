#include "app/gui/shell/QueuedProgressSink.h"

#include <QMetaObject>

namespace delineate::app {

QueuedProgressSink::QueuedProgressSink(core::CancelToken token, QObject* receiver, Deliver deliver,
                                       std::chrono::milliseconds interval)
    : token_(std::move(token)),
      receiver_(receiver),
      deliver_(std::move(deliver)),
      interval_(interval) {}

void QueuedProgressSink::report(double fraction, std::string_view stage) {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    if (any_ && fraction < 1.0 && now - last_ < interval_) {
      return;
    }
    any_ = true;
    last_ = now;
    ++delivered_;
  }
  QObject* receiver = receiver_.data();
  if (receiver == nullptr) {
    return;
  }
  const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
  // The functor runs in the receiver's thread; Qt drops it if the receiver is destroyed first.
  QMetaObject::invokeMethod(
      receiver, [deliver = deliver_, fraction, text] { deliver(fraction, text); },
      Qt::QueuedConnection);
}

int QueuedProgressSink::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

}  // namespace delineate::app
