#pragma once
// Crash recovery at start: the Document journals every edit under recoveryRoot()
// ($DELINEATE_RECOVERY_DIR, else core::EditJournal::defaultRoot()). When a start finds sessions
// whose process is gone, it offers them (a dialog listing source image, label map and time),
// recovers the newest without asking (--recover) or leaves them (--no-recover, screenshots).
// Recovering opens the session's source image, then installs the recovered label map as one
// undoable edit, marked unsaved; its journal continues in the old session folder. The job builds
// the map and its undo entry; the GUI thread only hands them over.
#include <QObject>
#include <QString>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "core/edit/EditJournal.h"
#include "core/edit/VoxelDelta.h"
#include "core/jobs/ProgressSink.h"

class QWidget;

namespace delineate::core {
class LabelMap;
}

namespace delineate::app {

class EditSession;
class JobRunner;

class RecoveryController : public QObject {
  Q_OBJECT

 public:
  enum class Mode { Ask, Recover, Skip };

  RecoveryController(EditSession* session, bool interactive, QObject* parent = nullptr);
  ~RecoveryController() override;

  static std::filesystem::path recoveryRoot();
  // Sessions left by processes that are gone, newest first.
  static std::vector<core::RecoverableSession> findSessions();

  // Chooses a session as `mode` says (Ask shows a dialog over `parent`), reads it in a job and
  // returns its source image path for the caller to open (empty: nothing to recover).
  QString offer(Mode mode, QWidget* parent);
  // Reads `session` in a job; the label map is installed on the next matching image.
  void recover(const core::RecoverableSession& session);
  // Called when an image is shown (and when a recovery finished reading).
  void tryInstall();
  bool pending() const { return reading_ || recovered_ != nullptr; }

  // The work of the recovery job (any thread): the recovered map and the undo entry that creates
  // it from an empty map.
  struct Built {
    std::shared_ptr<core::LabelMap> map;
    core::VoxelDelta restore;
  };
  static std::shared_ptr<Built> build(const core::RecoverableSession& session,
                                      core::ProgressSink& progress);

 Q_SIGNALS:
  void recovered(const QString& source);
  void failed(const QString& message);

 private:
  EditSession* edits_;
  JobRunner* jobs_;
  bool interactive_;
  bool reading_ = false;
  std::shared_ptr<Built> recovered_;
  core::RecoverableSession session_;
  QString source_;
};

}  // namespace delineate::app
