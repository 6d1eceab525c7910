#include "app/gui/upload/UploadController.h"

#include <QRegularExpression>
#include <QSettings>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <filesystem>
#include <utility>

#include "app/gui/shell/JobRunner.h"
#include "core/upload/UploadWorker.h"

namespace delineate::app {

namespace up = core::upload;

namespace {

// How often the queue is read again while one is watched: other processes (delineate-cli) may
// change it too.
constexpr int kRereadMs = 3000;

struct RunEnd {
  QString note;
  bool again = false;  // ended with nothing pending when it looked: items may have come since
};

}  // namespace

namespace {

QString sentSnapshotsKey(const QString& url) {
  return QStringLiteral("upload/sentSnapshots/") +
         QString::fromLatin1(QUrl::toPercentEncoding(url));
}

}  // namespace

void UploadController::setSentSnapshots(const QString& url, const QStringList& ids) {
  QSettings().setValue(sentSnapshotsKey(url), ids);
}

QStringList UploadController::sentSnapshots(const QString& url) const {
  return QSettings().value(sentSnapshotsKey(url)).toStringList();
}

UploadController::UploadController(QObject* parent)
    : QObject(parent),
      sender_(new JobRunner(this)),
      reader_(new JobRunner(this)),
      timer_(new QTimer(this)) {
  timer_->setInterval(kRereadMs);
  connect(timer_, &QTimer::timeout, this, [this] {
    if (!reader_->busy()) {
      refresh();
    }
  });
  connect(sender_, &JobRunner::progress, this, &UploadController::progress);
}

UploadController::~UploadController() {
  stop();
  reader_->cancel();
  reader_->waitForIdle();
}

QString UploadController::queueFolder() const {
  return url_.isEmpty()
             ? QString()
             : QString::fromStdString(up::defaultQueueFolder(url_.toStdString()).string());
}

up::QueueCounts UploadController::counts() const {
  up::QueueCounts c;
  for (const up::UploadItem& i : items_) {
    switch (i.state) {
      case up::UploadState::Pending:
        ++c.pending;
        c.pendingBytes += i.image.size + i.label.size;
        break;
      case up::UploadState::Done:
        ++c.done;
        break;
      case up::UploadState::Failed:
        ++c.failed;
        break;
    }
  }
  return c;
}

bool UploadController::sending() const {
  return sender_->busy();
}

void UploadController::watch(const QString& url, const QString& name,
                             std::shared_ptr<core::ai::AiBackend> backend) {
  if (url == url_) {
    name_ = name;
    backend_ = std::move(backend);
    refresh();
    return;
  }
  sender_->cancel();  // its items stay pending on disk; its answer is dropped (another url)
  url_ = url;
  name_ = name;
  backend_ = std::move(backend);
  queue_.reset();
  items_.clear();
  paused_ = false;
  note_.clear();
  stage_.clear();
  sendingId_.clear();
  Q_EMIT changed();
  if (url_.isEmpty()) {
    timer_->stop();
    return;
  }
  timer_->start();
  refresh();
}

void UploadController::refresh() {
  if (url_.isEmpty()) {
    return;
  }
  if (reader_->busy()) {
    rereadWanted_ = true;  // after the running read or change, which may predate what changed
    return;
  }
  const QString url = url_;
  const std::filesystem::path folder = up::defaultQueueFolder(url.toStdString());
  std::shared_ptr<up::UploadQueue> queue = queue_;
  reader_->run<Snapshot>(
      tr("Reading the upload queue"),
      [queue, folder](core::ProgressSink&) {
        Snapshot s;
        s.queue = queue;
        // A server never sent to has no queue; looking must not make one.
        if (!s.queue && std::filesystem::exists(folder / "items")) {
          s.queue = std::make_shared<up::UploadQueue>(folder);
        }
        if (s.queue) {
          s.items = s.queue->items();
          s.paused = s.queue->paused();
        }
        return s;
      },
      [this, url](Snapshot s) { apply(url, std::move(s)); },
      [this, url](const QString& error, bool cancelled) {
        if (!cancelled && url == url_) {
          note_ = error;
          Q_EMIT changed();
        }
        if (std::exchange(rereadWanted_, false)) {
          refresh();
        }
      });
}

void UploadController::apply(const QString& url, Snapshot s) {
  if (url == url_) {
    if (s.queue) {
      queue_ = std::move(s.queue);
    }
    items_ = std::move(s.items);
    std::sort(items_.begin(), items_.end(), [](const up::UploadItem& a, const up::UploadItem& b) {
      return a.queuedUnix != b.queuedUnix ? a.queuedUnix < b.queuedUnix : a.id < b.id;
    });
    paused_ = s.paused;
    Q_EMIT changed();
    if (queue_ && !sender_->busy() && std::exchange(sendWanted_, false)) {
      send();
    }
  }
  if (std::exchange(rereadWanted_, false)) {
    refresh();
  }
}

void UploadController::change(const QString& title, std::function<void(up::UploadQueue&)> operation,
                              std::function<void()> after) {
  if (!queue_) {
    return;
  }
  const QString url = url_;
  std::shared_ptr<up::UploadQueue> queue = queue_;
  // A read running now would show the queue as before the change: its answer is superseded.
  reader_->run<Snapshot>(
      title,
      [queue, operation = std::move(operation)](core::ProgressSink&) {
        operation(*queue);
        Snapshot s;
        s.queue = queue;
        s.items = queue->items();
        s.paused = queue->paused();
        return s;
      },
      [this, url, after](Snapshot s) {
        apply(url, std::move(s));
        if (after && url == url_) {
          after();
        }
      },
      [this, url, title](const QString& error, bool cancelled) {
        if (!cancelled && url == url_) {
          note_ = tr("%1 failed: %2").arg(title, error);
          Q_EMIT changed();
        }
      });
}

void UploadController::send() {
  if (url_.isEmpty() || !backend_) {
    return;
  }
  if (sender_->busy()) {
    sendWanted_ = true;  // a run still finishing (another server's, cancelled) must end first
    return;
  }
  if (!queue_) {
    sendWanted_ = true;  // the first Send made the queue: read it, then send
    refresh();
    return;
  }
  if (paused_) {
    return;
  }
  std::shared_ptr<up::UploadQueue> queue = queue_;
  std::shared_ptr<core::ai::AiBackend> backend = backend_;
  const QString url = url_;
  note_.clear();
  overall_ = 0;
  stage_ = tr("starting");
  sender_->run<RunEnd>(
      tr("Sending the upload queue to %1").arg(name_),
      [this, queue, backend, url](core::ProgressSink& progress) {
        up::UploadWorker worker(*queue, *backend);
        // The callbacks run on the worker's thread; the snapshot is the GUI thread's. This object
        // outlives the job (its destructor waits for it).
        worker.onItemChanged([this, url](const up::UploadItem& item) {
          QMetaObject::invokeMethod(
              this,
              [this, item, url] {
                if (url == url_) {
                  itemChanged(item);
                }
              },
              Qt::QueuedConnection);
        });
        worker.onWaiting([this, url](double seconds, const std::string& reason) {
          const QString text = tr("waiting %1 s before trying again: %2")
                                   .arg(seconds, 0, 'f', 1)
                                   .arg(QString::fromStdString(reason));
          QMetaObject::invokeMethod(
              this,
              [this, text, url] {
                if (url != url_) {
                  return;
                }
                stage_ = text;
                sendingId_.clear();
                Q_EMIT changed();
              },
              Qt::QueuedConnection);
        });
        const up::UploadRunSummary s = worker.run(progress);
        RunEnd end;
        // Paused is the user's own doing, shown as such, not as a problem.
        end.note = s.paused ? QString() : QString::fromStdString(s.stoppedBecause);
        end.again = s.stoppedBecause.empty() && !s.paused;
        return end;
      },
      [this, url](RunEnd end) {
        if (url == url_) {
          finishedRun(end.note, end.again || std::exchange(sendWanted_, false));
        } else if (std::exchange(sendWanted_, false)) {
          send();
        }
      },
      [this, url](const QString& error, bool cancelled) {
        if (url == url_) {
          finishedRun(cancelled ? tr("sending stopped; the items stay in the queue") : error,
                      std::exchange(sendWanted_, false) && !cancelled);
        } else if (std::exchange(sendWanted_, false)) {
          send();
        }
      });
  Q_EMIT changed();  // once sending() says so: a listener may otherwise start another run
}

void UploadController::finishedRun(const QString& note, bool again) {
  note_ = note;
  stage_.clear();
  sendingId_.clear();
  itemFraction_ = 0;
  overall_ = 0;
  Q_EMIT changed();
  if (!queue_) {
    return;
  }
  // Items queued while the worker was finishing would wait for the next start: look once more.
  std::shared_ptr<up::UploadQueue> queue = queue_;
  const QString url = url_;
  reader_->run<Snapshot>(
      tr("Reading the upload queue"),
      [queue](core::ProgressSink&) {
        Snapshot s;
        s.queue = queue;
        s.items = queue->items();
        s.paused = queue->paused();
        return s;
      },
      [this, url, again](Snapshot s) {
        apply(url, std::move(s));
        if (again && url == url_ && counts().pending > 0) {
          send();
        }
      },
      [](const QString&, bool) {});
}

void UploadController::itemChanged(const up::UploadItem& item) {
  auto it = std::find_if(items_.begin(), items_.end(),
                         [&](const up::UploadItem& i) { return i.id == item.id; });
  if (it != items_.end()) {
    *it = item;
  } else {
    items_.push_back(item);
  }
  Q_EMIT changed();
}

void UploadController::progress(double fraction, const QString& stage) {
  overall_ = fraction;
  // "sending <id> (k of n)": the worker's stage for the item it starts; the backend's own stages
  // ("uploading") follow while the same item is sent.
  static const QRegularExpression sendingStage(
      QStringLiteral("^sending (\\S+) \\((\\d+) of (\\d+)\\)$"));
  const QRegularExpressionMatch m = sendingStage.match(stage);
  if (m.hasMatch()) {
    sendingId_ = m.captured(1);
    stage_ = stage;
  } else if (stage.startsWith(QLatin1String("waiting"))) {
    sendingId_.clear();
    stage_ = stage;
  }
  if (!sendingId_.isEmpty()) {
    const QRegularExpressionMatch current = sendingStage.match(stage_);
    if (current.hasMatch()) {
      const double k = current.captured(2).toDouble(), n = current.captured(3).toDouble();
      itemFraction_ = std::clamp(fraction * n - (k - 1), 0.0, 1.0);
    }
  }
  Q_EMIT changed();
}

void UploadController::pause() {
  if (!queue_) {
    return;
  }
  // One small file, written here so that the worker sees it before its next item.
  try {
    queue_->setPaused(true);
    paused_ = true;
  } catch (const std::exception& e) {
    note_ = QString::fromUtf8(e.what());
  }
  Q_EMIT changed();
}

void UploadController::resume() {
  if (!queue_) {
    return;
  }
  try {
    queue_->setPaused(false);
    paused_ = false;
    note_.clear();
  } catch (const std::exception& e) {
    note_ = QString::fromUtf8(e.what());
  }
  Q_EMIT changed();
  send();
}

void UploadController::cancelItem(const QString& id) {
  const std::string name = id.toStdString();
  change(tr("Removing %1 from the upload queue").arg(id),
         [name](up::UploadQueue& queue) { queue.remove(name); });
}

void UploadController::retryFailed() {
  change(
      tr("Retrying the failed uploads"), [](up::UploadQueue& queue) { queue.retryFailed(); },
      [this] { send(); });
}

void UploadController::clearDone() {
  change(tr("Clearing delivered uploads"), [](up::UploadQueue& queue) { queue.clearDone(); });
}

void UploadController::stop() {
  sender_->cancel();
  sender_->waitForIdle();
}

}  // namespace delineate::app
