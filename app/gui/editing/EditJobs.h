#pragma once
// Jobs that compute from the active label map (segment operations, region grow, saving, delete
// and merge): the map is busy while one runs (EditSession refuses edits; Undo cancels it), the
// worker reads only const data, and the result is applied on the GUI thread unless the job was
// cancelled. One at a time; progress and Cancel show in the status bar.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "app/gui/editing/EditSession.h"
#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

class EditJobs : public QObject {
  Q_OBJECT

 public:
  EditJobs(EditSession* session, QObject* parent = nullptr);
  ~EditJobs() override;

  JobRunner* runner() const { return runner_; }

  // Refused (false, with a status message) while another job holds the map.
  template <class R>
  bool run(const QString& title, std::function<R(core::ProgressSink&)> work,
           std::function<void(R)> apply, std::function<void(const QString&)> failed = {});

  // Cancels the running job and waits until its worker stopped reading the map.
  void cancelAndWait();

 private:
  EditSession* session_;
  JobRunner* runner_;
};

template <class R>
bool EditJobs::run(const QString& title, std::function<R(core::ProgressSink&)> work,
                   std::function<void(R)> apply, std::function<void(const QString&)> failed) {
  if (session_->refuseEdit()) {
    return false;
  }
  auto dropped = std::make_shared<bool>(false);
  session_->setBusy(title, [this, dropped] {
    *dropped = true;
    cancelAndWait();
  });
  runner_->run<R>(
      title, std::move(work),
      [this, dropped, apply = std::move(apply)](R result) {
        if (*dropped) {
          return;
        }
        session_->clearBusy();
        apply(std::move(result));
      },
      [this, dropped, title, failed = std::move(failed)](const QString& error, bool cancelled) {
        if (*dropped) {
          return;
        }
        session_->clearBusy();
        if (cancelled) {
          Q_EMIT session_->statusMessage(tr("Cancelled: %1").arg(title));
        } else if (failed) {
          failed(error);
        } else {
          Q_EMIT session_->statusMessage(tr("%1 failed: %2").arg(title, error));
        }
      });
  return true;
}

}  // namespace delineate::app
