#pragma once
// Edit > Preferences' autosave: every N minutes the active label map, when it has a file (where
// it was opened or last saved) and unsaved changes, is written there from a copy
// (EditSession::readCopy) while editing goes on; the map counts as saved at the edit the copy was
// taken at, so edits made meanwhile stay unsaved. A failure (disk full, folder gone) is said in
// the status bar and tried again at the next interval; it never touches the map.
#include <QObject>
#include <QString>

class QTimer;

namespace delineate::app {

class EditSession;
class JobRunner;
class LabelFileController;

class Autosaver : public QObject {
  Q_OBJECT

 public:
  Autosaver(EditSession* session, LabelFileController* files, QObject* parent = nullptr);
  ~Autosaver() override;

  // 0 turns autosave off.
  void setIntervalMinutes(int minutes);
  int intervalMinutes() const { return minutes_; }
  // Saves now if there is something to save (the timer's tick; tests). Returns whether a save
  // started.
  bool saveNow();
  bool busy() const;
  int saved() const { return saved_; }

 Q_SIGNALS:
  void autosaved(const QString& path);
  void failed(const QString& message);

 private:
  EditSession* session_;
  LabelFileController* files_;
  QTimer* timer_;
  JobRunner* jobs_;
  int minutes_ = 0;
  int saved_ = 0;
};

}  // namespace delineate::app
