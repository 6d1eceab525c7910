#include "app/gui/shell/Autosaver.h"

#include <QFileInfo>
#include <QTimer>
#include <memory>

#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/shell/JobRunner.h"
#include "core/document/Document.h"
#include "core/io/LabelMapFileIO.h"
#include "core/model/LabelMap.h"

namespace delineate::app {

namespace {

constexpr int kRetryMs = 3000;  // a stroke under way or a copy being brought up to date

}  // namespace

Autosaver::Autosaver(EditSession* session, LabelFileController* files, QObject* parent)
    : QObject(parent),
      session_(session),
      files_(files),
      timer_(new QTimer(this)),
      jobs_(new JobRunner(this)) {
  connect(timer_, &QTimer::timeout, this, [this] { saveNow(); });
}

Autosaver::~Autosaver() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

void Autosaver::setIntervalMinutes(int minutes) {
  minutes_ = std::max(0, minutes);
  if (minutes_ == 0) {
    timer_->stop();
    return;
  }
  timer_->start(minutes_ * 60 * 1000);
}

bool Autosaver::busy() const {
  return jobs_->busy();
}

bool Autosaver::saveNow() {
  const std::shared_ptr<core::LabelMap> map = session_->activeMap();
  const QString path = files_->savePath();
  if (jobs_->busy() || !map || path.isEmpty() || !session_->isModified(*map)) {
    return false;
  }
  std::shared_ptr<const core::LabelMap> copy;
  if (map->openEdits() == 0) {  // a stroke under way could still roll back what a copy holds
    copy = session_->readCopy(*map);
  }
  if (!copy) {
    QTimer::singleShot(kRetryMs, this, [this] { saveNow(); });
    return false;
  }
  const std::uint64_t state = session_->document().editState(*map);
  const std::string file = path.toStdString();
  std::weak_ptr<core::LabelMap> weak = map;
  jobs_->run<bool>(
      tr("Autosaving %1").arg(QFileInfo(path).fileName()),
      [copy, file](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        core::writeLabelMapFiles(*copy, file, progress);  // atomic: the old file stays on failure
        return true;
      },
      [this, weak, state, path](bool) {
        if (const auto alive = weak.lock()) {
          session_->document().markSavedAt(*alive, state);
          session_->flush();
        }
        ++saved_;
        Q_EMIT session_->statusMessage(tr("Autosaved %1").arg(path));
        Q_EMIT autosaved(path);
      },
      [this, path](const QString& error, bool cancelled) {
        if (cancelled) {
          return;
        }
        const QString message = tr("Autosave to %1 failed: %2. Your work is kept (and journaled "
                                   "for recovery); save it elsewhere.")
                                    .arg(path, error);
        Q_EMIT session_->statusMessage(message);
        Q_EMIT failed(message);
      });
  return true;
}

}  // namespace delineate::app
