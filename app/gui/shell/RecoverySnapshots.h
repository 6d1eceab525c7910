#pragma once
// Keeps crash-recovery journals short and recoverable: when a label map's journal needs a
// snapshot (a loaded map has none yet, the map was saved, or the journal grew large), a job writes
// the map from a LabelMirror copy — the user keeps editing meanwhile — and the journal then drops
// the records the snapshot holds. One snapshot job at a time; a failure (disk full) is reported
// once and retried later.
#include <QObject>
#include <memory>

class QTimer;

namespace delineate::core {
class EditJournal;
class LabelMap;
}  // namespace delineate::core

namespace delineate::app {

class EditSession;
class JobRunner;

class RecoverySnapshots : public QObject {
  Q_OBJECT

 public:
  RecoverySnapshots(EditSession* session, int pollMs = 500, QObject* parent = nullptr);
  ~RecoverySnapshots() override;

  // Starts a snapshot now when one is due (tests; otherwise a timer polls).
  void poll();
  bool busy() const;
  int written() const { return written_; }

 private:
  EditSession* session_;
  QTimer* timer_;
  JobRunner* jobs_;
  int written_ = 0;
  int failures_ = 0;
  qint64 retryAfterMs_ = 0;
};

}  // namespace delineate::app
