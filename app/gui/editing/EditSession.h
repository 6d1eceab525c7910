#pragma once
// The app's side of segmentation editing: owns the core::Document (image, label maps, undo,
// recovery journal) and the annotation::EditContext the tools edit through; turns the Document's
// coalesced change sets into the views' LabelDisplayState and Qt signals for the docks. Lives on
// the GUI thread.
//
// While a job computes from the active label map (an operation, a save) the map is busy: edits
// are refused with a status message, and Undo cancels the job instead of undoing.
#include <QObject>
#include <QString>
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "annotation/EditContext.h"
#include "annotation/ops/BoxMask.h"
#include "core/document/Document.h"
#include "core/model/LabelMirror.h"
#include "viewers/LabelDisplayState.h"

namespace delineate::app {

class EditSession : public QObject {
  Q_OBJECT

 public:
  explicit EditSession(std::shared_ptr<viewers::LabelDisplayState> display,
                       QObject* parent = nullptr);
  ~EditSession() override;

  core::Document& document() { return document_; }
  annotation::EditContext& context() { return context_; }
  const std::shared_ptr<viewers::LabelDisplayState>& display() const { return display_; }

  // Journals edits under `root` (crash recovery).
  void enableRecovery(const std::filesystem::path& root);
  // A new image: drops label maps and history.
  void setImage(core::VolumePtr image);
  // Another frame of the open 4-D image: the label maps, their undo and the tools stay; the
  // tools read the new frame's intensities.
  void setImageFrame(core::VolumePtr frame);
  const core::VolumePtr& image() const { return document_.image(); }

  std::shared_ptr<core::LabelMap> activeMap() const { return document_.activeLabelMap(); }
  int activeMapIndex() const;
  // The active map, or a new "Segmentation" with one segment when there is none (null without
  // an image).
  std::shared_ptr<core::LabelMap> ensureLabelMap();
  // A new empty map with one segment, made active.
  std::shared_ptr<core::LabelMap> newLabelMap();
  // Adds a loaded map and makes it active; throws core::Error naming a grid difference.
  void addLabelMap(std::shared_ptr<core::LabelMap> map);
  void setActiveLabelMap(int index);
  // Renames one of the maps (its name in lists and the compare view; not an undo step).
  void renameLabelMap(const core::LabelMap& map, const QString& name);
  // Recovery: a recovered map (built by a job, see RecoveryController) becomes a new label map;
  // `restore` (empty map -> recovered, already applied) is one undo entry ("Recovered edits");
  // `journal` continues the crashed session's journal. The map is unsaved.
  struct RecoveredMap {
    std::shared_ptr<core::LabelMap> map;
    core::VoxelDelta restore;
    std::unique_ptr<core::EditJournal> journal;
  };
  void installRecovered(RecoveredMap recovered);

  // A copy of `map` that a job may read while editing goes on (core::LabelMirror), or null while
  // the copy is being brought up to date or an earlier job still reads it: try again shortly.
  std::shared_ptr<const core::LabelMap> readCopy(const core::LabelMap& map);

  std::uint16_t activeLabel() const { return context_.activeLabel; }
  void setActiveLabel(std::uint16_t label);
  void setPolicy(const core::PaintPolicy& policy) { context_.policy = policy; }
  const core::PaintPolicy& policy() const { return context_.policy; }

  // Segment table of the active map. Add, rename, recolour, move, delete and merge are undo
  // entries; visibility and locks are not (they are saved and journaled all the same).
  std::uint16_t addSegment(const QString& name = {});
  bool renameSegment(std::uint16_t label, const QString& name);
  bool recolorSegment(std::uint16_t label, const std::array<std::uint8_t, 3>& rgb);
  bool moveSegment(std::uint16_t label, int delta);
  void setSegmentVisible(std::uint16_t label, bool visible);
  void setSegmentLocked(std::uint16_t label, bool locked);
  // `cleared`: the segment's voxels set to 0, worked out by a job from the map as it is
  // (LabelMapEdit::staged). Writes it and removes the segment, as one undo entry.
  bool deleteSegment(std::uint16_t label, core::VoxelDelta cleared);
  // `moved`: `from`'s voxels set to `into` (worked out the same way); `from` leaves the table;
  // one undo entry.
  bool mergeSegments(std::uint16_t into, std::uint16_t from, core::VoxelDelta moved);

  // Voxels already written into the active map (`delta`, e.g. an accepted AI proposal), with
  // the segment table becoming `table` when given: one undo entry named `text`.
  bool commitEdit(const std::string& text, core::VoxelDelta delta,
                  std::optional<std::vector<core::Segment>> table = std::nullopt);

  void undo();
  void redo();

  bool busy() const { return !busyTitle_.isEmpty(); }
  const QString& busyTitle() const { return busyTitle_; }
  void setBusy(const QString& title, std::function<void()> cancel);
  void clearBusy();
  // True, with a status message, when an edit must not start now.
  bool refuseEdit();

  bool hasUnsavedChanges() const;
  bool isModified(const core::LabelMap& map) const { return document_.isModified(map); }
  void markSaved(const core::LabelMap& map);
  // A clean end of the session: its recovery journal goes.
  void discardRecovery();

  // Delivers the document's pending changes (views repaint, docks refresh).
  void flush();

 Q_SIGNALS:
  void labelMapsChanged();
  void segmentsChanged();
  void voxelsChanged(const delineate::core::VoxelBox& box);
  void activeSegmentChanged(std::uint16_t label);
  void undoStateChanged();
  void modifiedChanged(bool modified);
  void statusMessage(const QString& message);
  void busyChanged(bool busy);

 private:
  void onChange(const core::DocumentChange& change);
  bool pushTableEdit(const std::string& text, std::vector<core::Segment> after,
                     core::VoxelDelta delta = {});
  void tableEdited();
  void fixActiveLabel();

  core::Document document_;
  annotation::EditContext context_;
  std::shared_ptr<viewers::LabelDisplayState> display_;
  int observerId_ = 0;
  std::map<const core::LabelMap*, std::unique_ptr<core::LabelMirror>> mirrors_;
  bool lastModified_ = false;
  QString busyTitle_;
  std::function<void()> cancelBusy_;
};

}  // namespace delineate::app
