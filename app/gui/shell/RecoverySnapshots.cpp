#include "app/gui/shell/RecoverySnapshots.h"

#include <QDateTime>
#include <QTimer>

#include "app/gui/editing/EditSession.h"
#include "app/gui/shell/JobRunner.h"
#include "core/edit/EditJournal.h"

namespace delineate::app {

RecoverySnapshots::RecoverySnapshots(EditSession* session, int pollMs, QObject* parent)
    : QObject(parent), session_(session), timer_(new QTimer(this)), jobs_(new JobRunner(this)) {
  timer_->setInterval(pollMs);
  connect(timer_, &QTimer::timeout, this, &RecoverySnapshots::poll);
  timer_->start();
}

RecoverySnapshots::~RecoverySnapshots() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

bool RecoverySnapshots::busy() const {
  return jobs_->busy();
}

void RecoverySnapshots::poll() {
  if (jobs_->busy() || QDateTime::currentMSecsSinceEpoch() < retryAfterMs_) {
    return;
  }
  for (const auto& map : session_->document().labelMaps()) {
    core::EditJournal* journal = session_->document().journal(*map);
    if (journal == nullptr || !journal->needsSnapshot()) {
      continue;
    }
    if (map->openEdits() > 0) {
      return;  // a stroke could still roll back what a copy taken now would hold
    }
    auto copy = session_->readCopy(*map);
    if (!copy) {
      return;  // the copy is being brought up to date: next tick
    }
    const std::size_t offset = journal->journalBytes();
    const std::filesystem::path folder = journal->folder();
    std::weak_ptr<core::LabelMap> weak = map;
    jobs_->run<bool>(
        tr("Saving recovery snapshot"),
        [copy, folder](core::ProgressSink& progress) {
          progress.throwIfCancelled();
          core::EditJournal::writeSnapshot(*copy, folder);
          return true;
        },
        [this, weak, journal, offset](bool) {
          const auto alive = weak.lock();
          // The same map with the same journal (not a new image since): cut its journal.
          if (alive && session_->document().journal(*alive) == journal) {
            try {
              journal->snapshotWritten(offset);
              ++written_;
              failures_ = 0;
            } catch (const std::exception& e) {
              Q_EMIT session_->statusMessage(tr("Crash recovery: %1").arg(e.what()));
            }
          }
        },
        [this, folder](const QString& error, bool cancelled) {
          if (cancelled) {
            return;
          }
          if (failures_++ == 0) {
            Q_EMIT session_->statusMessage(
                tr("Crash recovery cannot write its snapshot in %1: %2. Your edits are still "
                   "journaled; save your work.")
                    .arg(QString::fromStdString(folder.string()), error));
          }
          retryAfterMs_ = QDateTime::currentMSecsSinceEpoch() + 30000;
        });
    return;
  }
}

}  // namespace delineate::app
