#pragma once
// Records how an annotator turned AI proposals into a final label map (core/metrics/
// CorrectionRecord.h): from the first Accept on a map, the proposals as the AI gave them, the
// AI clicks that made them, every edit after it (strokes, and which tools, by command name),
// undo and redo, and the active editing time. When the map is saved, a job measures each
// accepted label's proposal against the saved map (Dice, HD95, voxels added and removed per
// slice) and writes the record beside the file (brain_seg.nii.gz -> brain_seg.correction.json).
// Also exportable to any path. A map drawn here by hand (never read from or saved to a file
// before its first edit) gets a record too, from its first edit: the reader (Preferences), its
// strokes, tools and editing time, without proposals to measure. Maps read from a file and
// edited without an accepted proposal get none (their record is the one beside their file).
#include <QObject>
#include <QString>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "app/gui/ai/AiController.h"
#include "core/edit/Command.h"
#include "core/edit/UndoStack.h"
#include "core/metrics/ActiveTimeTracker.h"
#include "core/metrics/CorrectionRecord.h"
#include "core/metrics/ProposalSnapshot.h"

namespace delineate::app {

class EditSession;
class JobRunner;
class LabelFileController;

class CorrectionRecorder : public QObject {
  Q_OBJECT

 public:
  CorrectionRecorder(EditSession* session, AiController* ai, LabelFileController* files,
                     QObject* parent = nullptr);
  ~CorrectionRecorder() override;

  // True once a proposal was accepted into `map`, or it was drawn by hand here.
  bool recording(const core::LabelMap& map) const;
  // The record so far, without the measurements (they need a job).
  std::optional<core::CorrectionRecord> pending(const core::LabelMap& map) const;
  // The AI proposals accepted into `map`, per label of the map, as accepted (empty when none).
  using Proposals = std::vector<std::pair<std::uint16_t, core::ProposalSnapshot>>;
  Proposals acceptedProposals(const core::LabelMap& map) const;
  // Measures `map` against its proposals in a job and writes the record to `path`; written or
  // failed (naming the file) tells the outcome.
  void write(const core::LabelMap& map, const std::filesystem::path& path);
  bool busy() const;
  // The record being measured and written, for the status bar's progress and Cancel.
  JobRunner* jobs() const { return jobs_; }

 Q_SIGNALS:
  void written(const QString& path);
  void failed(const QString& message);

 private:
  struct State {
    core::CorrectionRecord record;  // labels filled in when measured
    Proposals proposals;
    core::ActiveTimeTracker time;
  };
  void onAccepted(const AiController::Accepted& accepted);
  void onCommand(const core::Command& command, core::UndoEvent event);
  // A record for the map of `command`, drawn by hand; false when it is not one to record.
  bool startByHand(const core::Command& command);
  void describe(const core::LabelMap& map, core::CorrectionRecord& record) const;
  void dropGoneMaps();

  EditSession* session_;
  LabelFileController* files_;
  JobRunner* jobs_;
  int commandObserver_ = 0;
  std::map<const core::LabelMap*, State> states_;
};

}  // namespace delineate::app
