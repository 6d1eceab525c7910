#include "app/gui/readers/ReadersController.h"

#include <QFileInfo>
#include <QTimer>
#include <chrono>

#include "annotation/review/RegionAdoption.h"
#include "app/gui/ai/CorrectionRecorder.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/shell/JobRunner.h"
#include "core/metrics/CorrectionRecord.h"
#include "viewers/ViewLayout.h"
#include "viewers/ViewState.h"

namespace delineate::app {

namespace {

int indexOf(EditSession* session, const core::LabelMap* map) {
  const auto& maps = session->document().labelMaps();
  for (std::size_t i = 0; i < maps.size(); ++i) {
    if (maps[i].get() == map) {
      return int(i);
    }
  }
  return -1;
}

bool failWith(QString* error, const QString& message) {
  if (error) {
    *error = message;
  }
  return false;
}

}  // namespace

ReadersController::ReadersController(EditSession* session, EditJobs* edits,
                                     LabelFileController* files, CorrectionRecorder* corrections,
                                     viewers::ViewLayout* views, QObject* parent)
    : QObject(parent),
      session_(session),
      edits_(edits),
      files_(files),
      corrections_(corrections),
      views_(views),
      jobs_(new JobRunner(this)) {
  connect(files_, &LabelFileController::saved, this,
          [this](const QString& path, const core::LabelMap* map) {
            if (!pendingRecord_ || map != adjudicated()) {
              return;
            }
            const std::filesystem::path record = core::adjudicationRecordPath(path.toStdString());
            try {
              core::writeAdjudicationRecord(*pendingRecord_, record);
              pendingRecord_.reset();
              Q_EMIT signedTo(QString::fromStdString(record.string()));
            } catch (const std::exception& e) {
              pendingRecord_.reset();
              Q_EMIT failed(tr("The map is saved, but not its adjudication record: %1")
                                .arg(QString::fromUtf8(e.what())));
            }
          });
  connect(files_, &LabelFileController::saveFailed, this, [this] { pendingRecord_.reset(); });
  connect(session_, &EditSession::labelMapsChanged, this, [this] {
    if (review_ && session_->document().labelMaps().empty()) {
      clear();  // a new image
    }
  });
}

ReadersController::~ReadersController() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

QStringList ReadersController::mapNames() const {
  QStringList out;
  for (const auto& map : session_->document().labelMaps()) {
    out << QString::fromStdString(map->name());
  }
  return out;
}

QStringList ReadersController::structures(const std::vector<int>& maps) const {
  QStringList out;
  const auto& all = session_->document().labelMaps();
  for (const int m : maps) {
    if (m < 0 || m >= int(all.size())) {
      continue;
    }
    for (const core::Segment& s : all[std::size_t(m)]->segments()) {
      const QString name = QString::fromStdString(s.name);
      if (!name.isEmpty() && !out.contains(name)) {
        out << name;
      }
    }
  }
  return out;
}

bool ReadersController::busy() const {
  return jobs_->busy();
}

bool ReadersController::compute(const std::vector<int>& maps, const QString& structure,
                                QString* error) {
  const auto& all = session_->document().labelMaps();
  if (maps.size() < 2) {
    return failWith(error, tr("Tick at least two readers' label maps."));
  }
  std::vector<std::shared_ptr<const core::LabelMap>> copies;
  std::vector<std::string> names;
  // How each map was made: this session's record of it, else the record beside its file (read
  // in the job).
  std::vector<std::string> tools;
  std::vector<std::filesystem::path> recordFiles;
  for (const int m : maps) {
    if (m < 0 || m >= int(all.size())) {
      return failWith(error, tr("No such label map."));
    }
    auto copy = session_->readCopy(*all[std::size_t(m)]);
    if (!copy) {
      // Another job reads that map's copy or it is being brought up to date: shortly again,
      // for up to ten seconds.
      if (++copyRetries_ > 50) {
        copyRetries_ = 0;
        return failWith(error, tr("%1 is busy in another job; try again when it is done.")
                                   .arg(QString::fromStdString(all[std::size_t(m)]->name())));
      }
      QTimer::singleShot(200, this, [this, maps, structure] {
        QString again;
        if (!compute(maps, structure, &again)) {
          Q_EMIT failed(again);
        }
      });
      return true;
    }
    copies.push_back(std::move(copy));
    const core::LabelMap& map = *all[std::size_t(m)];
    names.push_back(map.name());
    const auto pending = corrections_ ? corrections_->pending(map) : std::nullopt;
    tools.push_back(pending ? core::correctionSummary(*pending) : std::string());
    const QString path = files_->pathOf(map);
    recordFiles.push_back(pending || path.isEmpty()
                              ? std::filesystem::path()
                              : core::correctionRecordPath(path.toStdString()));
  }
  copyRetries_ = 0;
  std::vector<std::weak_ptr<const core::LabelMap>> live;
  for (const int m : maps) {
    live.push_back(all[std::size_t(m)]);
  }
  Q_EMIT started();
  const std::string name = structure.toStdString();
  jobs_->run<std::shared_ptr<annotation::ReaderReview>>(
      tr("Comparing %n readers", "", int(maps.size())),
      [copies, names, tools, recordFiles, name](core::ProgressSink& progress) {
        annotation::ReaderReview::Input in;
        for (const auto& c : copies) {
          in.readers.push_back(c.get());
        }
        in.names = names;
        in.tools = tools;
        for (std::size_t r = 0; r < recordFiles.size(); ++r) {
          std::error_code ec;
          if (!recordFiles[r].empty() && std::filesystem::exists(recordFiles[r], ec)) {
            try {
              in.tools[r] = core::correctionSummary(core::readCorrectionRecord(recordFiles[r]));
            } catch (const core::Error& e) {
              in.tools[r] = std::string("unreadable correction record: ") + e.what();
            }
          }
        }
        in.structure = name;
        return std::make_shared<annotation::ReaderReview>(
            annotation::ReaderReview::compute(std::move(in), progress));
      },
      [this, live](std::shared_ptr<annotation::ReaderReview> review) {
        review_ = std::move(*review);
        readerMaps_ = live;
        mapsHidden_ = true;
        showOverlay();
        Q_EMIT computed();
        Q_EMIT regionChanged();
      },
      [this](const QString& message, bool cancelled) {
        if (!cancelled) {
          Q_EMIT failed(tr("Readers: %1").arg(message));
        }
      });
  return true;
}

void ReadersController::clear() {
  jobs_->cancel();
  if (review_ && session_->display()->comparison() == review_->votes().map) {
    session_->display()->setComparison(nullptr, false);
  }
  review_.reset();
  readerMaps_.clear();
  Q_EMIT regionChanged();
}

std::vector<std::shared_ptr<const core::LabelMap>> ReadersController::readerMaps() const {
  std::vector<std::shared_ptr<const core::LabelMap>> out;
  for (const auto& m : readerMaps_) {
    out.push_back(m.lock());
  }
  return out;
}

void ReadersController::showOverlay() {
  if (!review_) {
    return;
  }
  const auto& votes = review_->votes().map;
  if (overlayShown_) {
    session_->display()->setComparison(votes, mapsHidden_);
  } else if (session_->display()->comparison() == votes) {
    session_->display()->setComparison(nullptr, false);
  }
}

void ReadersController::setOverlay(bool shown, bool mapsHidden) {
  overlayShown_ = shown;
  mapsHidden_ = mapsHidden;
  showOverlay();
  Q_EMIT regionChanged();
}

bool ReadersController::nextRegion() {
  if (!review_ || !review_->next()) {
    return false;
  }
  goToCurrent();
  return true;
}

bool ReadersController::previousRegion() {
  if (!review_ || !review_->previous()) {
    return false;
  }
  goToCurrent();
  return true;
}

void ReadersController::goToCurrent() {
  const core::DisagreementRegion* r = review_->currentRegion();
  if (!r) {
    return;
  }
  const core::ImageGeometry& g = review_->votes().map->geometry();
  views_->state()->setCursor(
      g.indexToWorld({double(r->centre[0]), double(r->centre[1]), double(r->centre[2])}));
  Q_EMIT regionChanged();
}

QString ReadersController::regionText() const {
  if (!review_) {
    return {};
  }
  if (review_->regions().empty()) {
    return tr("The readers agree on every voxel of %1.")
        .arg(QString::fromStdString(review_->structure()));
  }
  if (review_->current() < 0) {
    return tr("%n disagreement region(s), largest first: press Next.", "",
              int(review_->regions().size()));
  }
  return QString::fromStdString(review_->describe(review_->current()));
}

bool ReadersController::startAdjudication(QString* error) {
  if (!review_) {
    return failWith(error, tr("Compare the readers first."));
  }
  // The votes (a shared map and a few numbers) go to the job, not the regions' voxel lists.
  const core::ReaderVotes votes = review_->votes();
  const core::Segment segment = review_->segment();
  const std::string name = "Adjudicated: " + review_->structure();
  jobs_->run<std::shared_ptr<core::LabelMap>>(
      tr("Starting the adjudicated map"),
      [votes, segment, name](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        return annotation::ReaderReview::majorityOf(votes, segment, name);
      },
      [this](std::shared_ptr<core::LabelMap> map) {
        adjudicated_ = map;
        adjudicatedLabel_ = map->segments().front().label;
        session_->addLabelMap(std::move(map));  // active
        // The reviewer now looks at the adjudicated map, drawn over the readers' (the active map
        // is drawn last); the votes would cover it. Side by side still shows each reader.
        mapsHidden_ = false;
        overlayShown_ = false;
        session_->display()->setComparison(nullptr, false);
        showOverlay();
        Q_EMIT adjudicationStarted();
      },
      [this](const QString& message, bool cancelled) {
        if (!cancelled) {
          Q_EMIT failed(tr("Adjudication: %1").arg(message));
        }
      });
  return true;
}

bool ReadersController::takeReader(int reader, QString* error) {
  const std::shared_ptr<core::LabelMap> map = adjudicated_.lock();
  if (!review_ || !map) {
    return failWith(error, tr("Start the adjudication first."));
  }
  const core::DisagreementRegion* region = review_->currentRegion();
  if (!region) {
    return failWith(error, tr("Go to a disagreement region first (Next)."));
  }
  if (reader < 0 || reader >= int(review_->names().size())) {
    return failWith(error, tr("No such reader."));
  }
  if (session_->activeMap() != map) {
    session_->setActiveLabelMap(indexOf(session_, map.get()));
  }
  const std::vector<std::size_t> voxels = region->voxels;
  const std::vector<bool> marked = region->markedBy[std::size_t(reader)];
  const std::uint16_t label = adjudicatedLabel_;
  const core::PaintPolicy policy = session_->policy();
  const std::string text = "Take " + review_->names()[std::size_t(reader)] + " in region " +
                           std::to_string(review_->current() + 1);
  return edits_->run<core::VoxelDelta>(
      tr("Taking a reader's version"),
      [map, label, voxels, marked, policy](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        return annotation::adoptReaderRegion(*map, label, voxels, marked, policy);
      },
      [this, map, text](core::VoxelDelta delta) {
        if (session_->activeMap() != map) {
          return;
        }
        delta.apply(*map, true);
        session_->commitEdit(text, std::move(delta));
        Q_EMIT regionTaken();
      },
      [this](const QString& message) { Q_EMIT failed(message); });
}

bool ReadersController::sign(const QString& reviewer, QString* error) {
  const std::shared_ptr<core::LabelMap> map = adjudicated_.lock();
  if (!review_ || !map) {
    return failWith(error, tr("Start the adjudication first."));
  }
  if (reviewer.trimmed().isEmpty()) {
    return failWith(error, tr("Type the reviewer's name to sign."));
  }
  if (session_->busy()) {
    return failWith(error, tr("Wait for %1 to finish.").arg(session_->busyTitle()));
  }
  if (session_->activeMap() != map) {
    session_->setActiveLabelMap(indexOf(session_, map.get()));
  }
  pendingRecord_ = review_->record(*map, adjudicatedLabel_, reviewer.trimmed().toStdString(),
                                   core::utcTimestamp(std::chrono::system_clock::now()));
  if (!files_->save()) {
    pendingRecord_.reset();
    return failWith(error, tr("The adjudicated map was not saved, so it is not signed."));
  }
  return true;
}

}  // namespace delineate::app
