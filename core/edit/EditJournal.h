#pragma once
// Crash recovery: every committed voxel change (and every undo/redo) is appended to an on-disk
// journal as it happens. After a crash or SIGKILL, the next start finds the journal, loads its
// base (an all-zero map, or a snapshot) and replays the changes.
//
// Records hold absolute voxel values (a delta's new values forward, its old values backward), so
// replaying them from any state the map passed through since the journal began gives the final
// state. That is what lets the snapshot be written by a job from a copy taken while the user
// keeps editing: the journal is cut only before the point where the copy was taken.
//
// Folder layout (one per label map and editing session):  <root>/<session>/
//   manifest.json   source image, label map name, owner pid, start time, base ("empty" with the
//                   grid, "snapshot", or "pending" while a loaded map's first snapshot is due)
//   snapshot.nrrd + snapshot.json   the label map and its segments at the journal's start
//   journal.bin     records: [u32 magic][u32 type][u64 length][payload][u32 crc32]
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/edit/VoxelDelta.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

struct RecoverableSession {
  std::filesystem::path folder;
  std::string sourcePath;  // the image the labels were drawn on
  std::string labelName;
  std::string started;      // ISO time
  std::size_t records = 0;  // intact journal records after the base
};

class EditJournal {
 public:
  // Starts a journal for `labels` drawn on `sourcePath`: writes the manifest and the segment
  // table, nothing that grows with the map. `empty`: the map is known to hold only zeros, so it
  // needs no snapshot; otherwise needsSnapshot() is true until snapshotWritten().
  EditJournal(const std::filesystem::path& root, const LabelMap& labels,
              const std::string& sourcePath, bool empty);
  // Continues the journal of a recovered session in this process: its base and records are
  // exactly the recovered map.
  static std::unique_ptr<EditJournal> adopt(const RecoverableSession& session);
  ~EditJournal();
  EditJournal(const EditJournal&) = delete;
  EditJournal& operator=(const EditJournal&) = delete;

  // A delta applied forward (edit, redo) or backward (undo). Flushed to disk before returning.
  void recordDelta(const VoxelDelta& delta, bool forward);
  // The segment table changed (rename, recolour, lock, add, delete).
  void recordSegments(const std::vector<Segment>& segments);

  // A snapshot is due: the map was loaded, saved, or the journal grew past snapshotThreshold().
  bool needsSnapshot() const;
  // Asks for a snapshot (after a save).
  void requestSnapshot() { snapshotRequested_ = true; }
  static constexpr std::size_t snapshotThreshold() { return std::size_t(64) << 20; }
  // Any thread: writes `copy` (the map as it was when journalBytes() returned the offset later
  // passed to snapshotWritten) as the folder's next snapshot, each file atomically.
  static void writeSnapshot(const LabelMap& copy, const std::filesystem::path& folder);
  // The snapshot of the map at journal offset `offset` is on disk: it becomes the base, and the
  // records before `offset` are dropped. One snapshot at a time per journal.
  void snapshotWritten(std::size_t offset);
  // writeSnapshot + snapshotWritten of the map as it is now, on this thread (tests, small maps).
  void compact(const LabelMap& labels);
  // The work was saved or discarded: removes the folder.
  void discard();

  const std::filesystem::path& folder() const { return folder_; }
  std::size_t journalBytes() const { return bytes_; }
  // Records written since the journal began (a journal with none lost nothing).
  std::size_t records() const { return records_; }

  // Sessions under `root` whose owning process is gone (crashed or killed). Folders of dead
  // processes that hold nothing recoverable (no base yet) are removed.
  static std::vector<RecoverableSession> findRecoverable(const std::filesystem::path& root);
  // The label map as it was at the last record that reached the disk intact.
  static LabelMap recover(const RecoverableSession& session);
  // Per-user default root: $XDG_STATE_HOME or ~/.local/state, /delineate/recovery.
  static std::filesystem::path defaultRoot();

 private:
  EditJournal() = default;
  void writeRecord(std::uint32_t type, const std::string& payload);
  void openJournal(bool truncate);
  void writeManifest();

  std::filesystem::path folder_;
  std::FILE* file_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t records_ = 0;
  std::string base_;  // "empty", "snapshot" or "pending"
  bool snapshotRequested_ = false;
  std::string source_, labelName_, started_;
  std::string segments_;  // the table at the start, for an "empty" base
  ImageGeometry geometry_;
};

}  // namespace delineate::core
