#include "app/gui/annotator/AnnotatorLoop.h"

#include <QFileInfo>
#include <QTimer>
#include <chrono>

#include "annotation/ai/AnnotatorSteps.h"
#include "annotation/ai/ReaderLabels.h"
#include "annotation/ai/ServerLabelSchema.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/ServerSignIn.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/preferences/Preferences.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/upload/UploadController.h"
#include "app/gui/upload/UploadFeature.h"

namespace delineate::app {

namespace {

constexpr int kDefaultPollMs = 3000;

}  // namespace

AnnotatorLoop::AnnotatorLoop(MainWindow* window, QObject* parent)
    : QObject(parent),
      window_(window),
      jobs_(new JobRunner(this)),
      pollJobs_(new JobRunner(this)),
      poll_(new QTimer(this)) {
  poll_->setInterval(kDefaultPollMs);
  connect(poll_, &QTimer::timeout, this, &AnnotatorLoop::refreshTraining);
  connect(jobs_, &JobRunner::started, this, &AnnotatorLoop::changed);
  connect(jobs_, &JobRunner::finished, this, &AnnotatorLoop::changed);
  EditingFeature* editing = window_->editing();
  connect(editing->jobs()->runner(), &JobRunner::finished, this, &AnnotatorLoop::changed);
  connect(editing->jobs()->runner(), &JobRunner::started, this, &AnnotatorLoop::changed);
  AiController* ai = editing->ai();
  auto serverChanged = [this] {
    const auto& backends = window_->editing()->ai()->backends();
    const auto& current = backends[std::size_t(window_->editing()->ai()->backendIndex())];
    if (current.url != sampleServer_) {
      sampleId_.clear();  // an id of another server means nothing here
      sampleServer_.clear();
    }
    if (infoServer_ != current.url || !current.info) {
      info_.reset();  // the last poll's answer is another server's
    }
    Q_EMIT changed();
  };
  connect(ai, &AiController::backendsChanged, this, serverChanged);
  connect(ai, &AiController::modelsChanged, this, serverChanged);
  connect(ai, &AiController::statusChanged, this, serverChanged);
  connect(window_, &MainWindow::volumeShown, this, &AnnotatorLoop::imageShown);
  connect(window_, &MainWindow::loadFailed, this, [this](const QString&) {
    pending_.reset();
    Q_EMIT changed();
  });
  // Opening cancelled (or failed): the sample is not shown, and nothing waits for it any more.
  connect(window_->jobs(), &JobRunner::finished, this, [this](bool ok) {
    if (!ok && pending_) {
      pending_.reset();
      Q_EMIT changed();
    }
  });
}

AnnotatorLoop::~AnnotatorLoop() {
  jobs_->cancel();
  pollJobs_->cancel();
  jobs_->waitForIdle();
  pollJobs_->waitForIdle();
}

std::shared_ptr<core::ai::AiBackend> AnnotatorLoop::server() const {
  const AiController* ai = window_->editing()->ai();
  const auto& b = ai->backends()[std::size_t(ai->backendIndex())];
  return b.url.isEmpty() || !b.info ? nullptr : b.backend;
}

QString AnnotatorLoop::serverName() const {
  const AiController* ai = window_->editing()->ai();
  const auto& b = ai->backends()[std::size_t(ai->backendIndex())];
  return b.url.isEmpty() ? b.name : b.url;
}

const core::ai::ServerInfo* AnnotatorLoop::serverInfo() const {
  if (!server()) {
    return nullptr;
  }
  if (info_ && infoServer_ == serverName()) {
    return &*info_;
  }
  const AiController* ai = window_->editing()->ai();
  const auto& b = ai->backends()[std::size_t(ai->backendIndex())];
  return b.info ? &*b.info : nullptr;
}

QStringList AnnotatorLoop::strategies() const {
  QStringList out;
  if (const core::ai::ServerInfo* info = serverInfo()) {
    for (const auto& s : info->strategies) {
      out << QString::fromStdString(s.name);
    }
  }
  return out;
}

QStringList AnnotatorLoop::trainers() const {
  QStringList out;
  if (const core::ai::ServerInfo* info = serverInfo()) {
    for (const auto& t : info->trainers) {
      out << QString::fromStdString(t.name);
    }
  }
  return out;
}

QStringList AnnotatorLoop::schemaNames(const QString& trainer) const {
  QStringList out;
  if (const core::ai::ServerInfo* info = serverInfo()) {
    for (const auto& l : annotation::serverLabelSchema(*info, trainer.toStdString())) {
      out << QString::fromStdString(l.name);
    }
  }
  return out;
}

std::vector<AnnotatorLoop::MapState> AnnotatorLoop::workState() const {
  std::vector<MapState> state;
  for (const auto& map : window_->editing()->session()->document().labelMaps()) {
    state.push_back({map.get(), map->version(), map->segments()});
  }
  return state;
}

bool AnnotatorLoop::busy() const {
  return jobs_->busy() || pending_.has_value() || window_->editing()->jobs()->runner()->busy();
}

void AnnotatorLoop::fail(const QString& message, bool dialog) {
  if (dialog) {
    window_->editing()->showError(message);
  }
  Q_EMIT failed(message);
  Q_EMIT changed();
}

bool AnnotatorLoop::nextSample(const QString& strategy) {
  const auto backend = server();
  if (!backend) {
    fail(tr("Next sample needs an AI server: add or choose one in the AI panel (%1 is not "
            "connected).")
             .arg(serverName()));
    return false;
  }
  if (busy()) {
    Q_EMIT message(tr("Wait for the running job to finish, or cancel it."));
    return false;
  }
  if (!window_->editing()->confirmDiscard()) {
    return false;  // the annotator keeps the unsaved label map
  }
  asked_ = workState();
  const std::string chosen = strategy.isEmpty() ? std::string("random") : strategy.toStdString();
  const std::string folder = downloads_.path().toStdString();
  const bool original = loadOriginal_;
  const bool readers = loadReaders_;
  const QString serverUrl = serverName();
  jobs_->run<Fetched>(
      tr("Next sample (%1) from %2").arg(QString::fromStdString(chosen), serverUrl),
      [backend, chosen, folder, original, readers](core::ProgressSink& progress) {
        core::SubProgress sample(progress, 0, readers ? 0.6 : 1.0);
        const auto next = annotation::fetchNextSample(*backend, chosen, folder, original, sample);
        if (!next) {
          return Fetched{};
        }
        Fetched out{next->id, next->image, next->original, next->downloaded, {}};
        if (readers) {
          core::SubProgress part(progress, 0.6, 1.0);
          const std::string into =
              folder + "/" + annotation::safeFileName(next->id) + ".readers." +
              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
          for (const auto& r : annotation::fetchReaderLabels(*backend, next->id, into, part)) {
            out.readers.emplace_back(r.reader, r.path);
          }
        }
        return out;
      },
      [this, serverUrl](Fetched fetched) {
        if (fetched.id.empty()) {
          Q_EMIT message(tr("%1 has no image left without a final label.").arg(serverUrl));
          Q_EMIT changed();
          return;
        }
        pendingServer_ = serverUrl;
        showFetched(fetched);
      },
      [this, serverUrl](const QString& error, bool cancelled) {
        if (cancelled) {
          Q_EMIT message(tr("Next sample cancelled."));
          Q_EMIT changed();
          return;
        }
        fail(tr("Next sample from %1 failed:\n%2\n\nYour label maps are as they were.")
                 .arg(serverUrl, error));
      });
  return true;
}

void AnnotatorLoop::showFetched(const Fetched& fetched) {
  pending_ = fetched;
  const QString path = QString::fromStdString(fetched.image);
  // Edits made while the sample came were not part of the Discard answer: ask again then.
  const bool opened = workState() != asked_ ? window_->openPath(path) : window_->openImage(path);
  if (!opened) {
    pending_.reset();
    Q_EMIT message(tr("Image %1 was not opened: your label maps are kept.")
                       .arg(QString::fromStdString(fetched.id)));
  }
  Q_EMIT changed();
}

void AnnotatorLoop::imageShown() {
  const core::VolumePtr& shown = window_->volume();
  if (!pending_) {
    sampleId_.clear();  // the annotator opened another image
    sampleServer_.clear();
    Q_EMIT changed();
    return;
  }
  const Fetched fetched = *pending_;
  pending_.reset();
  if (!shown || QFileInfo(QString::fromStdString(shown->info().sourcePath)) !=
                    QFileInfo(QString::fromStdString(fetched.image))) {
    sampleId_.clear();
    sampleServer_.clear();
    Q_EMIT changed();
    return;
  }
  sampleId_ = QString::fromStdString(fetched.id);
  sampleServer_ = pendingServer_;
  QStringList labels, readers;
  if (!fetched.original.empty()) {
    labels << QString::fromStdString(fetched.original);
  }
  for (const auto& [reader, path] : fetched.readers) {
    readers << QString::fromStdString(reader);
    labels << QString::fromStdString(path);
  }
  window_->editing()->files()->openLabelMaps(labels);
  QString text = fetched.downloaded
                     ? tr("Image %1 downloaded from %2.").arg(sampleId_, sampleServer_)
                     : tr("Image %1 read from the server's datastore.").arg(sampleId_);
  if (loadReaders_ || !readers.isEmpty()) {
    if (readers.isEmpty()) {
      text += QLatin1Char(' ') + tr("No reader's label of it on the server.");
    } else if (readers.size() == 1) {
      text += QLatin1Char(' ') + tr("One reader's label opened: %1.").arg(readers.front());
    } else {
      text += QLatin1Char(' ') + tr("%1 readers' labels opened: %2.")
                                     .arg(readers.size())
                                     .arg(readers.join(QStringLiteral(", ")));
    }
  }
  Q_EMIT message(text);
  Q_EMIT sampleShown(sampleId_);
  Q_EMIT changed();
}

QString AnnotatorLoop::readerName() const {
  return app::readerName(window_->editing()->ai()->serverSignIn()->user(serverName()));
}

bool AnnotatorLoop::submit(bool thenTrain, const QString& trainer) {
  return submitAs(false, thenTrain, trainer);
}

bool AnnotatorLoop::submitReading() {
  return submitAs(true, false, {});
}

bool AnnotatorLoop::submitAs(bool asReader, bool thenTrain, const QString& trainer) {
  const auto backend = server();
  const core::ai::ServerInfo* info = serverInfo();
  if (!backend || info == nullptr) {
    fail(tr("Submitting needs an AI server: add or choose one in the AI panel (%1 is not "
            "connected).")
             .arg(serverName()));
    return false;
  }
  if (sampleId_.isEmpty() || sampleServer_ != serverName()) {
    fail(tr("Take an image with Next sample first: %1 stores the label under its image's id.")
             .arg(serverName()));
    return false;
  }
  EditSession* session = window_->editing()->session();
  const std::shared_ptr<core::LabelMap> map = session->activeMap();
  if (!map) {
    fail(tr("There is no label map to submit: paint or open one first."));
    return false;
  }
  const auto schema = annotation::serverLabelSchema(*info, trainer.toStdString());
  const std::string id = sampleId_.toStdString();
  const std::string where = serverName().toStdString();
  std::shared_ptr<const core::LabelMap> source = map;
  const QString reader = asReader ? readerName() : QString();
  return window_->editing()->jobs()->run<bool>(
      asReader ? tr("Submitting %1's reading of %2 to %3").arg(reader, sampleId_, serverName())
               : tr("Submitting the label of %1 to %2").arg(sampleId_, serverName()),
      [backend, source, schema, id, where,
       reader = reader.toStdString()](core::ProgressSink& progress) {
        if (reader.empty()) {
          annotation::submitFinalLabel(*backend, *source, schema, id, where, progress);
        } else {
          annotation::submitReaderLabel(*backend, *source, schema, id, reader, where, progress);
        }
        return true;
      },
      [this, source, thenTrain, trainer, id, reader](bool) {
        window_->editing()->session()->markSaved(*source);
        const QString sent = QString::fromStdString(id);
        Q_EMIT message(reader.isEmpty()
                           ? tr("Submitted as the final label of %1.").arg(sent)
                           : tr("Submitted as %1's reading of %2 (label tag %3); the final label "
                                "is unchanged.")
                                 .arg(reader, sent,
                                      QString::fromStdString(
                                          annotation::readerLabelTag(reader.toStdString()))));
        Q_EMIT submitted(sent);
        Q_EMIT changed();
        if (thenTrain) {
          startTraining(trainer);
        }
      },
      [this](const QString& error) {
        fail(
            tr("The label was not submitted:\n%1\n\nYour label map is kept unchanged.").arg(error));
      });
}

bool AnnotatorLoop::startTraining(const QString& trainer) {
  const auto backend = server();
  const QStringList offered = trainers();
  if (!backend || offered.isEmpty()) {
    fail(tr("%1 offers no training.").arg(serverName()));
    return false;
  }
  if (jobs_->busy()) {
    Q_EMIT message(tr("Wait for the running job to finish, or cancel it."));
    return false;
  }
  const QString chosen = offered.contains(trainer) ? trainer : offered.front();
  const QString serverUrl = serverName();
  // The snapshots of the folders uploaded to this server: the run records which data it was
  // given beside the snapshot the server computes of its own datastore.
  const QStringList snapshots = window_->upload()->controller()->sentSnapshots(serverUrl);
  std::vector<std::string> ids;
  for (const QString& id : snapshots) {
    ids.push_back(id.toStdString());
  }
  const nlohmann::json config = annotation::trainingRequest(ids);
  jobs_->run<core::ai::TrainStatus>(
      tr("Starting training of %1 on %2").arg(chosen, serverUrl),
      [backend, model = chosen.toStdString(), config](core::ProgressSink& progress) {
        return backend->startTraining(model, config, progress);
      },
      [this, chosen, snapshots](core::ai::TrainStatus status) {
        trainer_ = chosen;
        ++trainingRound_;
        trainingAnswer(status, std::nullopt);
        Q_EMIT message(snapshots.isEmpty()
                           ? tr("Training of %1 started.").arg(chosen)
                           : tr("Training of %1 started; it names the uploaded snapshot %2.")
                                 .arg(chosen, snapshots.join(QStringLiteral(", ")).left(12)));
        refreshTraining();
      },
      [this, serverUrl](const QString& error, bool cancelled) {
        if (!cancelled) {
          fail(tr("Training did not start on %1:\n%2").arg(serverUrl, error));
        }
        Q_EMIT changed();
      });
  return true;
}

bool AnnotatorLoop::stopTraining() {
  const auto backend = server();
  if (!backend) {
    fail(tr("Not connected to an AI server (%1).").arg(serverName()));
    return false;
  }
  if (jobs_->busy()) {
    Q_EMIT message(tr("Wait for the running job to finish, or cancel it."));
    return false;
  }
  const QString serverUrl = serverName();
  jobs_->run<bool>(
      tr("Stopping training on %1").arg(serverUrl),
      [backend](core::ProgressSink& progress) {
        backend->stopTraining(progress);
        return true;
      },
      [this](bool) {
        ++trainingRound_;
        Q_EMIT message(tr("Training stopped."));
        refreshTraining();
      },
      [this, serverUrl](const QString& error, bool cancelled) {
        if (!cancelled) {
          fail(tr("Training was not stopped on %1:\n%2").arg(serverUrl, error));
        }
        Q_EMIT changed();
      });
  return true;
}

void AnnotatorLoop::refreshTraining() {
  const auto backend = server();
  if (!backend || pollJobs_->busy()) {
    return;
  }
  struct Answer {
    core::ai::TrainStatus status;
    std::optional<core::ai::ServerInfo> info;
  };
  const QString serverUrl = serverName();
  pollJobs_->run<Answer>(
      tr("Training status from %1").arg(serverUrl),
      [backend](core::ProgressSink& progress) {
        Answer a;
        a.status = backend->trainingStatus(progress);
        a.info = backend->info(progress);
        return a;
      },
      [this, serverUrl, round = trainingRound_](Answer a) {
        if (serverUrl != serverName()) {
          return;
        }
        if (round != trainingRound_) {
          // Asked before training was started or stopped: the answer describes the run before.
          refreshTraining();
          return;
        }
        infoServer_ = serverUrl;
        pollFailures_ = 0;
        trainingAnswer(a.status, a.info);
      },
      [this, serverUrl](const QString& error, bool cancelled) {
        if (!cancelled) {
          // Not a dialog: a poll nobody asked for must not interrupt the annotator. A poll that
          // fails is tried again at the next tick, up to kMaxPollFailures in a row.
          const bool giveUp = ++pollFailures_ >= kMaxPollFailures;
          if (giveUp) {
            poll_->stop();
          }
          fail(giveUp ? tr("No training status from %1: %2").arg(serverUrl, error)
                      : tr("No training status from %1 (trying again): %2").arg(serverUrl, error),
               false);
        }
      });
}

void AnnotatorLoop::trainingAnswer(const core::ai::TrainStatus& status,
                                   const std::optional<core::ai::ServerInfo>& info) {
  const bool wasRunning = trainStatus_ && trainStatus_->running;
  trainStatus_ = status;
  if (wasRunning && !status.running) {
    Q_EMIT message(
        tr("Training of %1 ended: %2.").arg(trainer_, QString::fromStdString(status.state)));
  }
  if (info) {
    info_ = info;
  }
  if (trainer_.isEmpty()) {
    const QStringList offered = trainers();
    trainer_ = offered.isEmpty() ? QString() : offered.front();
  }
  updatePolling();
  Q_EMIT trainingChanged();
  Q_EMIT changed();
}

std::optional<core::ai::TrainerStats> AnnotatorLoop::trainStats() const {
  const core::ai::ServerInfo* info = serverInfo();
  if (info == nullptr || trainer_.isEmpty()) {
    return std::nullopt;
  }
  const core::ai::TrainerStats* stats = info->findTrainStats(trainer_.toStdString());
  return stats ? std::optional(*stats) : std::nullopt;
}

void AnnotatorLoop::setWatching(bool on) {
  watching_ = on;
  updatePolling();
  if (on && server() && !trainStatus_) {
    refreshTraining();  // what runs on the server now, once, when the dock is first shown
  }
}

void AnnotatorLoop::setPollInterval(int ms) {
  poll_->setInterval(ms);
}

bool AnnotatorLoop::polling() const {
  return poll_->isActive();
}

void AnnotatorLoop::updatePolling() {
  const bool running = trainStatus_ && trainStatus_->running;
  if (watching_ && running && server()) {
    if (!poll_->isActive()) {
      poll_->start();
    }
  } else {
    poll_->stop();
  }
}

}  // namespace delineate::app
