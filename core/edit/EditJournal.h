#pragma once
// Crash recovery: every committed voxel change (and every undo/redo) is appended to an on-disk
// journal as it happens, after a snapshot of the label map. After a crash or SIGKILL, the next
// start finds the journal, loads the snapshot and replays the changes.
//
// Folder layout (one per editing session):  <root>/<session>/
//   manifest.json   source image path, label map name, owner pid, start time
//   snapshot.nrrd + snapshot.json   the label map and its segments when the journal began
//   journal.bin     records: [u32 magic][u32 type][u64 length][payload][u32 crc32]
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/edit/VoxelDelta.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

struct RecoverableSession {
  std::filesystem::path folder;
  std::string sourcePath;  // the image the labels were drawn on
  std::string labelName;
  std::string started;  // ISO time
  std::size_t records = 0;
};

class EditJournal {
 public:
  // Starts a journal for `labels` drawn on `sourcePath`: writes the manifest and a snapshot.
  EditJournal(const std::filesystem::path& root, const LabelMap& labels,
              const std::string& sourcePath);
  ~EditJournal();
  EditJournal(const EditJournal&) = delete;
  EditJournal& operator=(const EditJournal&) = delete;

  // A delta applied forward (edit, redo) or backward (undo). Flushed to disk before returning.
  void recordDelta(const VoxelDelta& delta, bool forward);
  // The segment table changed (rename, recolour, lock, add, delete).
  void recordSegments(const std::vector<Segment>& segments);
  // Rewrites the snapshot and empties the journal (after a save, or when it grew large).
  void compact(const LabelMap& labels);
  // The work was saved or discarded: removes the folder.
  void discard();

  const std::filesystem::path& folder() const { return folder_; }
  std::size_t journalBytes() const { return bytes_; }

  // Sessions under `root` whose owning process is gone (crashed or killed).
  static std::vector<RecoverableSession> findRecoverable(const std::filesystem::path& root);
  // The label map as it was at the last record that reached the disk intact.
  static LabelMap recover(const RecoverableSession& session);
  // Per-user default root: $XDG_STATE_HOME or ~/.local/state, /delineate/recovery.
  static std::filesystem::path defaultRoot();

 private:
  void writeRecord(std::uint32_t type, const std::string& payload);
  void openJournal(bool truncate);

  std::filesystem::path folder_;
  std::FILE* file_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace delineate::core
