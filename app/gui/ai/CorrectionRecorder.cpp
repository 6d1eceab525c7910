#include "app/gui/ai/CorrectionRecorder.h"

#include <QFileInfo>
#include <QTimer>
#include <chrono>

#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/preferences/Preferences.h"
#include "app/gui/shell/JobRunner.h"
#include "core/edit/Command.h"
#include "core/metrics/CorrectionMeasurement.h"

namespace delineate::app {

namespace {

constexpr int kRecorderRetryMs = 30;

}  // namespace

CorrectionRecorder::CorrectionRecorder(EditSession* session, AiController* ai,
                                       LabelFileController* files, QObject* parent)
    : QObject(parent), session_(session), files_(files), jobs_(new JobRunner(this)) {
  connect(ai, &AiController::accepted, this, &CorrectionRecorder::onAccepted);
  connect(files, &LabelFileController::saved, this,
          [this](const QString& path, const core::LabelMap* map) {
            if (map && recording(*map)) {
              write(*map, core::correctionRecordPath(path.toStdString()));
            }
          });
  connect(session_, &EditSession::labelMapsChanged, this, &CorrectionRecorder::dropGoneMaps);
  commandObserver_ = session_->document().addCommandObserver(
      [this](const core::Command& c, core::UndoEvent e) { onCommand(c, e); });
}

CorrectionRecorder::~CorrectionRecorder() {
  session_->document().removeCommandObserver(commandObserver_);
  jobs_->waitForIdle();  // a record being written on the way out (save, then close) is finished
}

bool CorrectionRecorder::recording(const core::LabelMap& map) const {
  return states_.count(&map) != 0;
}

bool CorrectionRecorder::busy() const {
  return jobs_->busy();
}

CorrectionRecorder::Proposals CorrectionRecorder::acceptedProposals(
    const core::LabelMap& map) const {
  const auto it = states_.find(&map);
  return it == states_.end() ? Proposals{} : it->second.proposals;
}

std::optional<core::CorrectionRecord> CorrectionRecorder::pending(const core::LabelMap& map) const {
  const auto it = states_.find(&map);
  if (it == states_.end()) {
    return std::nullopt;
  }
  core::CorrectionRecord record = it->second.record;
  record.activeEditingSeconds = it->second.time.activeSeconds();
  return record;
}

void CorrectionRecorder::onAccepted(const AiController::Accepted& accepted) {
  State& state = states_[accepted.map];
  if (state.record.acceptedAt.empty()) {
    state.record.acceptedAt = core::utcTimestamp(std::chrono::system_clock::now());
  }
  describe(*accepted.map, state.record);
  state.record.backend = accepted.backend.toStdString();
  state.record.model = accepted.model.toStdString();
  state.record.modelVersion = accepted.modelVersion.toStdString();
  state.record.reader = accepted.reader.toStdString();
  state.record.clicks += accepted.clicks;
  // A label accepted again is compared with its latest proposal.
  for (const auto& [label, snapshot] : accepted.labels) {
    auto same = std::find_if(state.proposals.begin(), state.proposals.end(),
                             [&](const auto& p) { return p.first == label; });
    if (same != state.proposals.end()) {
      same->second = snapshot;
    } else {
      state.proposals.emplace_back(label, snapshot);
    }
  }
  state.time.event(std::chrono::steady_clock::now());
}

void CorrectionRecorder::describe(const core::LabelMap& map, core::CorrectionRecord& record) const {
  record.labelMap = map.name();
  // The image by its series UID (DICOM) or its file name: what a dataset pairs records by.
  if (const core::VolumePtr& image = session_->image()) {
    const core::VolumeInfo& info = image->info();
    record.image = !info.seriesInstanceUid.empty()
                       ? info.seriesInstanceUid
                       : std::filesystem::path(info.sourcePath).filename().string();
  }
}

bool CorrectionRecorder::startByHand(const core::Command& command) {
  const core::LabelMap* target = command.labelMap();
  if (target == nullptr) {
    return false;
  }
  // A map read from a file was made before this session, maybe by someone else: its record (if
  // any) stays the one beside its file.
  for (const auto& map : session_->document().labelMaps()) {
    if (map.get() == target) {
      if (!files_->pathOf(*map).isEmpty()) {
        return false;
      }
      State& state = states_[target];
      describe(*map, state.record);
      state.record.reader = readerName().toStdString();
      return true;
    }
  }
  return false;
}

void CorrectionRecorder::onCommand(const core::Command& command, core::UndoEvent event) {
  auto it = states_.find(command.labelMap());
  if (it == states_.end()) {
    if (event != core::UndoEvent::Pushed || command.text() == "Accept AI proposal" ||
        !startByHand(command)) {
      return;
    }
    it = states_.find(command.labelMap());
  }
  State& state = it->second;
  state.time.event(std::chrono::steady_clock::now());
  switch (event) {
    case core::UndoEvent::Pushed:
      if (command.text() == "Accept AI proposal") {
        return;  // the acceptance itself, counted by onAccepted
      }
      ++state.record.strokes;
      ++state.record.tools[command.text()];
      break;
    case core::UndoEvent::Undone:
      ++state.record.tools["Undo"];
      break;
    case core::UndoEvent::Redone:
      ++state.record.tools["Redo"];
      break;
  }
}

void CorrectionRecorder::dropGoneMaps() {
  const auto& maps = session_->document().labelMaps();
  for (auto it = states_.begin(); it != states_.end();) {
    const bool present =
        std::any_of(maps.begin(), maps.end(), [&](const auto& m) { return m.get() == it->first; });
    it = present ? std::next(it) : states_.erase(it);
  }
}

void CorrectionRecorder::write(const core::LabelMap& map, const std::filesystem::path& path) {
  const auto it = states_.find(&map);
  if (it == states_.end()) {
    Q_EMIT failed(tr("%1 was neither drawn nor corrected here: there is no correction record.")
                      .arg(QString::fromStdString(map.name())));
    return;
  }
  auto copy = session_->readCopy(map);
  if (!copy) {
    const core::LabelMap* target = &map;
    QTimer::singleShot(kRecorderRetryMs, this, [this, target, path] {
      if (recording(*target)) {
        write(*target, path);
      }
    });
    return;
  }
  core::CorrectionRecord record = *pending(map);
  record.savedAt = core::utcTimestamp(std::chrono::system_clock::now());
  const auto proposals = it->second.proposals;
  const QString file = QString::fromStdString(path.string());
  jobs_->run<bool>(
      tr("Writing the correction record %1").arg(QFileInfo(file).fileName()),
      [copy, proposals, record, path](core::ProgressSink& progress) mutable {
        for (std::size_t n = 0; n < proposals.size(); ++n) {
          core::SubProgress part(progress, double(n) / double(proposals.size()),
                                 double(n + 1) / double(proposals.size()));
          record.labels.push_back(
              core::measureCorrection(proposals[n].second, *copy, proposals[n].first, part));
        }
        core::writeCorrectionRecord(record, path);
        return true;
      },
      [this, file](bool) { Q_EMIT written(file); },
      [this, file](const QString& error, bool cancelled) {
        if (!cancelled) {
          Q_EMIT failed(tr("Cannot write the correction record %1: %2").arg(file, error));
        }
      });
}

}  // namespace delineate::app
