#pragma once
// The annotator loop against an AI server (MONAI Label, delineate-server): Next sample asks the
// server's active learning for an image without a final label and shows it — read where the
// server keeps it when this machine can read that path, else downloaded — optionally with the
// server's `original` label and every reader's label (annotation/ai/ReaderLabels), each opened as
// its own label map named after its reader; Submit sends the active label map as the image's
// `final` label (the adjudicated one), Submit my reading as the reader's own label beside it, its
// segments matched by name to the server's label schema (ServerLabelSchema); Submit may start
// training; training is started, stopped and followed (GET /train/ and /info/ train_stats) every
// few seconds while someone looks (the dock is visible) and a run is going.
//
// Every call runs as a job with progress and Cancel; a failure names the server, keeps the
// user's label maps as they were, and leaves every button usable.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>
#include <optional>
#include <vector>

#include "core/ai/AiBackend.h"

class QTimer;

namespace delineate::app {

class JobRunner;
class MainWindow;

class AnnotatorLoop : public QObject {
  Q_OBJECT

 public:
  explicit AnnotatorLoop(MainWindow* window, QObject* parent = nullptr);
  ~AnnotatorLoop() override;

  // The server of the AI panel's current backend, when it is one (not the built-in engine) and
  // answered /info/; its display name ("MONAI Label at http://...") for messages.
  std::shared_ptr<core::ai::AiBackend> server() const;
  QString serverName() const;
  // What the server offers, from its last /info/ answer (empty when none).
  QStringList strategies() const;
  QStringList trainers() const;
  // The label names the server trains on (its schema), for the dock and messages.
  QStringList schemaNames(const QString& trainer = {}) const;

  // The server's id of the image shown, when it came from Next sample (empty otherwise).
  const QString& sampleId() const { return sampleId_; }
  bool busy() const;
  JobRunner* jobs() const { return jobs_; }

  bool loadOriginal() const { return loadOriginal_; }
  void setLoadOriginal(bool on) { loadOriginal_ = on; }
  // Next sample also opens every reader's label of the image the server holds.
  bool loadReaders() const { return loadReaders_; }
  void setLoadReaders(bool on) { loadReaders_ = on; }
  // Who submits a reading to the server now: its sign-in name, else Preferences, else the login.
  QString readerName() const;

  // Next sample by `strategy` ("first", "random", ...). Unsaved label maps: asks first (the
  // window's Discard / Cancel); false when the user kept them or nothing can start.
  bool nextSample(const QString& strategy);
  // Submits the active label map as the sample's `final` label (an EditJobs job: the map is busy
  // meanwhile); `thenTrain`: starts training with `trainer` once stored.
  bool submit(bool thenTrain, const QString& trainer = {});
  // Submits the active label map as the reader's own label of the sample (tag "reader-<name>"),
  // leaving the final label alone.
  bool submitReading();
  bool startTraining(const QString& trainer = {});
  bool stopTraining();
  // Asks for the training status and train_stats once.
  void refreshTraining();

  // Polls while `on` (the dock is visible) and a run is going; `ms` between polls.
  void setWatching(bool on);
  void setPollInterval(int ms);
  bool polling() const;

  const std::optional<core::ai::TrainStatus>& trainStatus() const { return trainStatus_; }
  // train_stats of the trainer that runs (or ran), from the last /info/.
  std::optional<core::ai::TrainerStats> trainStats() const;
  const QString& trainer() const { return trainer_; }

 Q_SIGNALS:
  // Something the dock shows changed: server, strategies, busy state, sample.
  void changed();
  void sampleShown(const QString& id);
  void submitted(const QString& id);
  void trainingChanged();
  void failed(const QString& message);
  void message(const QString& text);

 private:
  struct Fetched {
    std::string id;
    std::string image;     // a local file
    std::string original;  // the `original` label's local file; empty: none
    bool downloaded = false;
    std::vector<std::pair<std::string, std::string>> readers;  // reader, local file
  };
  bool submitAs(bool asReader, bool thenTrain, const QString& trainer);
  // What the user's Discard answer was about: each label map's voxel version and segment table.
  struct MapState {
    const core::LabelMap* map;
    std::uint64_t version;
    std::vector<core::Segment> segments;
    bool operator==(const MapState&) const = default;
  };
  std::vector<MapState> workState() const;
  void fail(const QString& message, bool dialog = true);
  void showFetched(const Fetched& fetched);
  void imageShown();
  void trainingAnswer(const core::ai::TrainStatus& status,
                      const std::optional<core::ai::ServerInfo>& info);
  void updatePolling();
  const core::ai::ServerInfo* serverInfo() const;

  MainWindow* window_;
  JobRunner* jobs_;      // Next sample, training start/stop: one at a time, Cancel in the dock
  JobRunner* pollJobs_;  // status polls, never cancelling the user's job
  QTimer* poll_;
  QTemporaryDir downloads_;
  bool loadOriginal_ = false;
  bool loadReaders_ = false;
  bool watching_ = false;
  std::vector<MapState> asked_;  // the label maps when the user answered "Discard"
  QString sampleId_;
  QString sampleServer_;  // which server's id it is
  std::optional<Fetched> pending_;
  QString pendingServer_;
  QString trainer_;
  std::optional<core::ai::TrainStatus> trainStatus_;
  // Bumped by each start/stop answer: a status poll sent before it is stale when it lands.
  unsigned trainingRound_ = 0;
  // Training status polls failed in a row: one may time out while the server runs a long
  // inference (a MONAI Label server answers nothing else meanwhile), so polling stops only after
  // kMaxPollFailures.
  int pollFailures_ = 0;
  static constexpr int kMaxPollFailures = 5;
  std::optional<core::ai::ServerInfo> info_;  // the last /info/ of a poll
  QString infoServer_;                        // whose
};

}  // namespace delineate::app
