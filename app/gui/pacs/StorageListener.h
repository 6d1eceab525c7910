#pragma once
// This workstation's Storage SCP kept listening (Edit > Preferences > DICOM nodes > "Listen
// always"): what a PACS, a modality or a colleague's workstation sends to our AE title and port
// goes into the study cache, study by study, and shows in the study browser under "This computer
// (study cache)". While it listens, C-MOVE retrieves use it instead of opening the port
// themselves. Off (the default), the port is open only while a move runs.
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <string>

namespace delineate::core::pacs {
class StorageScp;
}

namespace delineate::app {

class StorageListener : public QObject {
  Q_OBJECT

 public:
  // `cacheRoot`: the study cache's folder.
  StorageListener(QString cacheRoot, QObject* parent = nullptr);
  ~StorageListener() override;

  // Starts, restarts (another title or port) or stops listening as the settings say.
  void apply();
  bool listening() const { return scp_ != nullptr; }
  // Why it does not listen although asked to (a port in use), else empty.
  const QString& problem() const { return problem_; }
  // Instances received since it started.
  std::size_t received() const;
  // Whether an instance of this process listens as `aeTitle` on `port` (moves then use it).
  static bool listensAs(const std::string& aeTitle, int port);

 Q_SIGNALS:
  void stateChanged();
  // More instances arrived; `total` since it started.
  void receivedMore(std::size_t total);

 private:
  void stop();

  QString cacheRoot_;
  std::unique_ptr<core::pacs::StorageScp> scp_;
  std::string aeTitle_;
  int port_ = 0;
  QString problem_;
  QTimer poll_;
  std::size_t reported_ = 0;
};

}  // namespace delineate::app
