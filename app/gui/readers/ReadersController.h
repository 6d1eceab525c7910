#pragma once
// The readers view's Qt side: several of the session's label maps (one per reader) compared on one
// structure by annotation::ReaderReview in a job; the votes map drawn over every slice view
// (LabelDisplayState::setComparison), the disagreement regions stepped through largest first (the
// linked cursor goes to each), and adjudication: a new "Adjudicated" map started from the
// majority vote, a region set to one reader's version as one undo entry, and signing, which
// saves the map and writes the adjudication record beside it. Widgets: ReadersDock.
#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "annotation/review/ReaderReview.h"

namespace delineate::viewers {
class ViewLayout;
}

namespace delineate::core {
class LabelMap;
}

namespace delineate::app {

class CorrectionRecorder;
class EditJobs;
class EditSession;
class JobRunner;
class LabelFileController;

class ReadersController : public QObject {
  Q_OBJECT

 public:
  // `corrections`: how each reader's map was made, for the adjudication record (may be null).
  ReadersController(EditSession* session, EditJobs* edits, LabelFileController* files,
                    CorrectionRecorder* corrections, viewers::ViewLayout* views,
                    QObject* parent = nullptr);
  ~ReadersController() override;

  // The session's label maps by name, in session order (what can be a reader).
  QStringList mapNames() const;
  // Segment names in the maps at `maps` (indices into mapNames()), in first-seen order.
  QStringList structures(const std::vector<int>& maps) const;

  // Compares the maps at `maps` (at least two) on `structure` (a segment name; empty: label
  // value 1) in a job. False with `error` when it cannot start.
  bool compute(const std::vector<int>& maps, const QString& structure, QString* error = nullptr);
  void clear();
  JobRunner* runner() const { return jobs_; }
  bool busy() const;
  const annotation::ReaderReview* review() const { return review_ ? &*review_ : nullptr; }
  // The session's maps the last comparison read, in its reader order (null: closed since).
  std::vector<std::shared_ptr<const core::LabelMap>> readerMaps() const;

  // Whether the votes map is drawn, and whether the label maps are hidden under it (they are
  // while comparing; once adjudication starts the votes are put away and the maps shown, the
  // adjudicated one on top, so that the reviewer sees the map).
  void setOverlay(bool shown, bool mapsHidden);
  bool overlayShown() const { return overlayShown_; }
  bool mapsHidden() const { return mapsHidden_; }

  // Moves to the next / previous disagreement region (largest first) and puts the linked cursor
  // on it; false when there is none.
  bool nextRegion();
  bool previousRegion();
  QString regionText() const;

  // Adjudication. start: a new label map "Adjudicated: <structure>" holding what more than half
  // the readers marked, made active (a job). takeReader: the current region set to reader r's
  // version in the adjudicated map, one undo entry "Take <reader> in region N". sign: the
  // adjudicated map saved (where it was saved before, else asked), then the record written
  // beside it as <map>.adjudication.json naming `reviewer`.
  bool startAdjudication(QString* error = nullptr);
  bool takeReader(int reader, QString* error = nullptr);
  bool sign(const QString& reviewer, QString* error = nullptr);
  const core::LabelMap* adjudicated() const { return adjudicated_.lock().get(); }

 Q_SIGNALS:
  void started();
  void computed();
  void regionChanged();
  void adjudicationStarted();
  void regionTaken();
  void signedTo(const QString& recordPath);
  void failed(const QString& message);

 private:
  void showOverlay();
  void goToCurrent();

  EditSession* session_;
  EditJobs* edits_;
  LabelFileController* files_;
  CorrectionRecorder* corrections_;
  viewers::ViewLayout* views_;
  JobRunner* jobs_;
  std::optional<annotation::ReaderReview> review_;
  std::vector<std::weak_ptr<const core::LabelMap>> readerMaps_;
  std::weak_ptr<core::LabelMap> adjudicated_;
  std::uint16_t adjudicatedLabel_ = 0;
  // Signing waits for the save it started.
  std::optional<core::AdjudicationRecord> pendingRecord_;
  int copyRetries_ = 0;
  bool overlayShown_ = true;
  bool mapsHidden_ = true;
};

}  // namespace delineate::app
