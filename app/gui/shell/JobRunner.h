#pragma once
// Runs one job at a time off the GUI thread (QtConcurrent) with progress and Cancel, and hands
// its result or error to callbacks on the GUI thread. Starting a job cancels the previous one,
// whose result is then dropped. Workers get only values; they never touch widgets or VTK.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <functional>
#include <memory>
#include <optional>

#include "app/gui/shell/QueuedProgressSink.h"
#include "core/Error.h"

namespace delineate::app {

class JobRunner : public QObject {
  Q_OBJECT

 public:
  explicit JobRunner(QObject* parent = nullptr);
  ~JobRunner() override;

  template <class R>
  void run(const QString& title, std::function<R(core::ProgressSink&)> work,
           std::function<void(R)> done,
           std::function<void(const QString& error, bool cancelled)> failed);

  bool busy() const { return busy_; }
  const QString& title() const { return title_; }
  // Asks the running job to stop; its `failed` callback then reports cancelled = true (unless it
  // finished anyway).
  void cancel();
  // Blocks until no job runs (shutdown and tests).
  void waitForIdle();

 Q_SIGNALS:
  void started(const QString& title);
  void progress(double fraction, const QString& stage);
  void finished(bool ok);

 private:
  template <class R>
  struct Outcome {
    std::optional<R> value;
    QString error;
    bool cancelled = false;
  };

  core::CancelToken token_;
  unsigned generation_ = 0;
  bool busy_ = false;
  QString title_;
  QList<QFutureWatcherBase*> watchers_;
};

template <class R>
void JobRunner::run(const QString& title, std::function<R(core::ProgressSink&)> work,
                    std::function<void(R)> done, std::function<void(const QString&, bool)> failed) {
  token_.cancel();
  token_ = core::CancelToken();
  const unsigned generation = ++generation_;
  busy_ = true;
  title_ = title;
  auto sink = std::make_shared<QueuedProgressSink>(
      token_, this, [this, generation](double fraction, const QString& stage) {
        if (generation == generation_) {
          Q_EMIT progress(fraction, stage);
        }
      });
  using Result = std::shared_ptr<Outcome<R>>;
  auto* watcher = new QFutureWatcher<Result>(this);
  watchers_.append(watcher);
  connect(watcher, &QFutureWatcherBase::finished, this, [=, this] {
    Result outcome = watcher->result();
    watchers_.removeAll(watcher);
    watcher->deleteLater();
    if (generation != generation_) {
      return;  // superseded by a newer job
    }
    busy_ = false;
    if (outcome->value) {
      Q_EMIT finished(true);
      done(std::move(*outcome->value));
    } else {
      Q_EMIT finished(false);
      failed(outcome->error, outcome->cancelled);
    }
  });
  Q_EMIT started(title);
  watcher->setFuture(QtConcurrent::run([work = std::move(work), sink]() -> Result {
    auto outcome = std::make_shared<Outcome<R>>();
    try {
      outcome->value = work(*sink);
    } catch (const core::CancelledError&) {
      outcome->cancelled = true;
      outcome->error = QStringLiteral("cancelled");
    } catch (const std::exception& e) {
      outcome->error = QString::fromUtf8(e.what());
    } catch (...) {
      outcome->error = QStringLiteral("unknown error");
    }
    return outcome;
  }));
}

}  // namespace delineate::app
