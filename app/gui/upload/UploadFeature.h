#pragma once
// Dataset upload in the workstation window: "Upload dataset…" (ai.uploadDataset) and "Upload
// queue…" (ai.uploadQueue) in the AI menu, the status bar's badge, and the queue of the AI
// panel's current server, sent whenever that server is connected and the queue has pending items
// (so a queue left by a crash, a reboot or a lost network resumes by itself; Pause holds it). At
// start, the configured servers' queues are looked at (a job) and the first with items left is
// shown in the badge. MainWindow owns one.
#include <QObject>
#include <QTemporaryDir>

class QMenu;

namespace delineate::app {

class CommandRegistry;
class DatasetUploadDialog;
class JobRunner;
class MainWindow;
class UploadBadge;
class UploadController;
class UploadQueueView;

class UploadFeature : public QObject {
  Q_OBJECT

 public:
  UploadFeature(MainWindow* window, CommandRegistry* commands, bool interactive);
  ~UploadFeature() override;

  void populateMenu(QMenu* menu);
  UploadController* controller() const { return controller_; }
  UploadBadge* badge() const { return badge_; }
  // Created on first use, then kept (non-modal).
  DatasetUploadDialog* dialog();
  UploadQueueView* queueView();
  void showDialog();
  void showQueue();

 private:
  void serverChanged();
  void findLeftQueue();
  void addOpenImage();
  // The study browser's selected series (all image series when none is selected) as cases.
  void addStudySeries();

  MainWindow* window_;
  CommandRegistry* commands_;
  bool interactive_;
  UploadController* controller_;
  UploadBadge* badge_;
  JobRunner* startup_;
  DatasetUploadDialog* dialog_ = nullptr;
  UploadQueueView* queueView_ = nullptr;
  QTemporaryDir openImages_;  // the open image's files for "Add open image"
};

}  // namespace delineate::app
