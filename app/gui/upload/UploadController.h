#pragma once
// The app's side of the persistent upload queue (core/upload): the queue of one AI server at a
// time (defaultQueueFolder of its URL), read off the GUI thread into a snapshot the badge and the
// queue view show, and sent by an UploadWorker as a background job — progress per item and
// overall, Pause (the worker stops after the request it is in), Resume, cancelling an item,
// retrying failed ones and clearing delivered ones. The queue lives on disk, so a crash or a
// restart loses nothing: the app resumes sending when that server is connected again.
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "core/ai/AiBackend.h"
#include "core/upload/UploadQueue.h"

class QTimer;

namespace delineate::app {

class JobRunner;

class UploadController : public QObject {
  Q_OBJECT

 public:
  explicit UploadController(QObject* parent = nullptr);
  ~UploadController() override;

  // Shows the queue of the server at `url` (`name` for messages); the backend sends it. Another
  // server's queue being sent is stopped first (its items stay pending on disk).
  void watch(const QString& url, const QString& name, std::shared_ptr<core::ai::AiBackend> backend);
  const QString& serverUrl() const { return url_; }
  const QString& serverName() const { return name_; }
  QString queueFolder() const;

  // The queue as last read (GUI thread).
  const std::vector<core::upload::UploadItem>& items() const { return items_; }
  core::upload::QueueCounts counts() const;
  bool paused() const { return paused_; }
  bool sending() const;
  // The send job's overall fraction and stage, the item being sent and its own fraction.
  double overallFraction() const { return overall_; }
  const QString& stage() const { return stage_; }
  const QString& sendingId() const { return sendingId_; }
  double itemFraction() const { return itemFraction_; }
  // Why the last run stopped with items left (paused, signed out, an error naming the server).
  const QString& note() const { return note_; }

  // Reads the queue again (a job); `changed` follows.
  void refresh();
  // Sends the pending items (a job); nothing when paused, already sending or nothing watched.
  void send();
  void pause();
  void resume();
  // Removes an item and its staged files (cancel); the worker skips it if it was sending it.
  void cancelItem(const QString& id);
  void retryFailed();
  void clearDone();
  // Stops sending now (items stay pending) and waits for the worker; shutdown and tests.
  void stop();

  JobRunner* sender() const { return sender_; }

  // The dataset snapshots (core/dataset ids) of the folders the upload dialog last sent to the
  // server at `url`: a training request to that server names them (AnnotatorLoop), so that the
  // run records which version of the data it was given. Kept in the user's settings
  // ("upload/sentSnapshots"), so a training started after a restart still names them.
  void setSentSnapshots(const QString& url, const QStringList& ids);
  QStringList sentSnapshots(const QString& url) const;

 Q_SIGNALS:
  void changed();

 private:
  struct Snapshot {
    std::shared_ptr<core::upload::UploadQueue> queue;
    std::vector<core::upload::UploadItem> items;
    bool paused = false;
  };
  void apply(const QString& url, Snapshot snapshot);
  void itemChanged(const core::upload::UploadItem& item);
  void progress(double fraction, const QString& stage);
  void finishedRun(const QString& note, bool again);
  // Runs `operation` on the queue off the GUI thread, reads it again, then runs `after`.
  void change(const QString& title, std::function<void(core::upload::UploadQueue&)> operation,
              std::function<void()> after = {});

  QString url_;
  QString name_;
  std::shared_ptr<core::ai::AiBackend> backend_;
  std::shared_ptr<core::upload::UploadQueue> queue_;
  std::vector<core::upload::UploadItem> items_;
  bool paused_ = false;
  double overall_ = 0;
  double itemFraction_ = 0;
  QString stage_;
  QString sendingId_;
  QString note_;
  bool rereadWanted_ = false;
  bool sendWanted_ = false;
  JobRunner* sender_;
  JobRunner* reader_;
  QTimer* timer_;
};

}  // namespace delineate::app
