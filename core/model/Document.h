#pragma once
// The one owner of what the user works on: the image, its label maps, the undo stack and the
// crash-recovery journal. Lives on the GUI thread; workers get const snapshots. Changes are
// collected and delivered coalesced (one notification per frame, not per voxel).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/edit/EditJournal.h"
#include "core/edit/UndoStack.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::core {

enum class ChangeKind { Image, LabelMaps, Voxels, Segments };

struct DocumentChange {
  ChangeKind kind;
  const LabelMap* labelMap = nullptr;  // for Voxels / Segments
  VoxelBox box;                        // for Voxels: everything that changed since the last flush
};

class Document {
 public:
  using Observer = std::function<void(const DocumentChange&)>;

  Document();
  ~Document();

  // Replaces the image; drops label maps and undo history (the caller saves or asks first).
  void setImage(VolumePtr image);
  const VolumePtr& image() const { return image_; }

  // A new empty label map on the image grid, made active.
  std::shared_ptr<LabelMap> addLabelMap(const std::string& name,
                                        std::vector<Segment> segments = {});
  // Adds an existing label map (loaded from a file); throws Error naming the grid difference.
  void addLabelMap(std::shared_ptr<LabelMap> labels);
  const std::vector<std::shared_ptr<LabelMap>>& labelMaps() const { return labelMaps_; }
  std::shared_ptr<LabelMap> activeLabelMap() const;
  void setActiveLabelMap(std::size_t index);

  UndoStack& undoStack() { return undo_; }
  bool hasUnsavedChanges() const { return !undo_.isClean(); }
  void markSaved();

  // Journals edits of the active label map under `root` (crash recovery); off until called.
  void enableRecovery(const std::filesystem::path& root);
  EditJournal* journal() { return journal_.get(); }

  // Segment table edits (rename, recolour, lock...) go through here to be journaled and announced.
  void segmentsChanged(const LabelMap& labels);
  // Voxels changed outside the undo stack (a stroke in progress): announce the box.
  void voxelsChanged(const LabelMap& labels, const VoxelBox& box);

  int addObserver(Observer observer);
  void removeObserver(int id);
  // Delivers the changes collected since the last flush, merged per label map.
  void flushChanges();
  bool hasPendingChanges() const { return !pending_.empty() || pendingKinds_ != 0; }

 private:
  void onUndoEvent(Command& command, UndoEvent event);
  void post(ChangeKind kind);

  VolumePtr image_;
  std::vector<std::shared_ptr<LabelMap>> labelMaps_;
  std::size_t active_ = 0;
  UndoStack undo_;
  std::unique_ptr<EditJournal> journal_;
  std::filesystem::path recoveryRoot_;
  std::map<int, Observer> observers_;
  int nextObserver_ = 1;
  std::map<const LabelMap*, VoxelBox> pending_;
  std::map<const LabelMap*, bool> pendingSegments_;
  unsigned pendingKinds_ = 0;  // bit per ChangeKind::Image / LabelMaps
};

}  // namespace delineate::core
