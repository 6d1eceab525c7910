#pragma once
// The one owner of what the user works on: the image, its label maps, the undo stack and the
// crash-recovery journals (one per label map). Lives on the GUI thread; workers get const
// snapshots. Changes are collected and delivered coalesced (one notification per frame, not per
// voxel). Unsaved state is kept per label map: saving one map leaves the others unsaved.
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
  // Another frame of the same 4-D image: label maps, undo and journals stay (they live on the
  // 3-D grid every frame shares). Throws Error(InvalidInput) when its grid differs.
  void setImageFrame(VolumePtr frame);

  // A new empty label map on the image grid, made active.
  std::shared_ptr<LabelMap> addLabelMap(const std::string& name,
                                        std::vector<Segment> segments = {});
  // Adds an existing label map (loaded from a file); throws Error naming the grid difference.
  // Its journal needs a snapshot (EditJournal::needsSnapshot) before it can recover anything.
  void addLabelMap(std::shared_ptr<LabelMap> labels);
  // Adds a recovered label map: `journal` (EditJournal::adopt) already holds its state, and
  // `restore` — the edit from an empty map to it, already applied — becomes one undo entry that
  // is not journaled again. The map is unsaved.
  void addRecoveredLabelMap(std::shared_ptr<LabelMap> labels, std::unique_ptr<Command> restore,
                            std::unique_ptr<EditJournal> journal);
  const std::vector<std::shared_ptr<LabelMap>>& labelMaps() const { return labelMaps_; }
  std::shared_ptr<LabelMap> activeLabelMap() const;
  void setActiveLabelMap(std::size_t index);

  UndoStack& undoStack() { return undo_; }
  // Any label map differs from what was last saved or loaded.
  bool hasUnsavedChanges() const;
  bool isModified(const LabelMap& labels) const;
  // `labels` as it is now is on disk; its journal asks for a fresh snapshot.
  void markSaved(const LabelMap& labels);
  // Which edit `labels` is at now (the newest applied undo entry); and that the map as it was at
  // `state` is on disk (a copy saved while editing went on): still modified unless no edit came
  // since.
  std::uint64_t editState(const LabelMap& labels) const;
  void markSavedAt(const LabelMap& labels, std::uint64_t state);
  // A change outside the undo stack (visibility, lock) that still needs saving.
  void markModified(const LabelMap& labels);

  // Journals edits of every label map under `root` (crash recovery); off until called.
  void enableRecovery(const std::filesystem::path& root);
  EditJournal* journal(const LabelMap& labels);
  // The sessions' journals end cleanly (the user saved or discarded): their folders go.
  void discardJournals();

  // Segment table edits (rename, recolour, lock...) go through here to be journaled and announced.
  void segmentsChanged(const LabelMap& labels);
  // Voxels changed outside the undo stack (a stroke in progress): announce the box.
  void voxelsChanged(const LabelMap& labels, const VoxelBox& box);

  int addObserver(Observer observer);
  void removeObserver(int id);
  // Told of every command pushed, undone or redone, as it happens (the correction record counts
  // strokes and tools with it).
  using CommandObserver = std::function<void(const Command&, UndoEvent)>;
  int addCommandObserver(CommandObserver observer);
  void removeCommandObserver(int id);
  // Delivers the changes collected since the last flush, merged per label map.
  void flushChanges();
  bool hasPendingChanges() const { return !pending_.empty() || pendingKinds_ != 0; }

 private:
  // Per label map: its journal and what distinguishes its saved state.
  struct MapState {
    std::unique_ptr<EditJournal> journal;
    std::vector<std::uint64_t> applied;  // serials of its applied commands, oldest first
    std::uint64_t savedTop = 0;          // applied.back() when last saved or loaded (0: none)
    bool forcedModified = false;         // changed outside the undo stack since then
  };

  void onUndoEvent(Command& command, UndoEvent event);
  void post(ChangeKind kind);
  void insertLabelMap(std::shared_ptr<LabelMap> labels);
  void startJournal(const LabelMap& labels, bool empty);

  VolumePtr image_;
  std::vector<std::shared_ptr<LabelMap>> labelMaps_;
  std::size_t active_ = 0;
  UndoStack undo_;
  std::map<const LabelMap*, MapState> states_;
  std::filesystem::path recoveryRoot_;
  bool journaling_ = true;  // off while a recovered map's restore entry is pushed
  std::map<int, Observer> observers_;
  std::map<int, CommandObserver> commandObservers_;
  int nextObserver_ = 1;
  std::map<const LabelMap*, VoxelBox> pending_;
  std::map<const LabelMap*, bool> pendingSegments_;
  unsigned pendingKinds_ = 0;  // bit per ChangeKind::Image / LabelMaps
};

}  // namespace delineate::core
