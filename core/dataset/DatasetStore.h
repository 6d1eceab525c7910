#pragma once
// Versions of a dataset folder, kept beside the data as git keeps a work tree's: every file's
// content stored once under its SHA-256 (`<dataset>/.delineate-snapshots/objects/ab/cdef…`), one
// manifest per snapshot listing each file's path, digest and size (`snapshots/<id>.json`), and a
// log of the snapshots taken, each with its parent, time and message (`log.jsonl`).
//
// A snapshot's id is the SHA-256 of its manifest's content alone (paths and digests, sorted by
// path): the same files give the same id on any machine, in any order of creation, whatever the
// history. A snapshot of unchanged content adds nothing. Objects are copies, never links, so a
// file edited in place cannot change history. docs/datasets.md.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/dataset/LabelProvenance.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core::dataset {

struct SnapshotFile {
  std::string path;    // relative to the dataset, with '/' separators
  std::string sha256;  // 64 lowercase hex digits
  std::uintmax_t bytes = 0;
};

struct Snapshot {
  std::string id;
  std::vector<SnapshotFile> files;  // sorted by path
  // Of the label maps with a correction record beside them (LabelProvenance.h); not part of
  // the id.
  std::vector<LabelProvenance> provenance;
  const SnapshotFile* find(const std::string& path) const;
};

struct LogEntry {
  std::string id;
  std::string parent;  // empty for the first
  std::string time;    // ISO 8601, UTC
  std::string message;
};

class DatasetStore {
 public:
  static constexpr const char* kFolder = ".delineate-snapshots";

  explicit DatasetStore(std::filesystem::path dataset);
  const std::filesystem::path& dataset() const { return dataset_; }
  std::filesystem::path storeFolder() const { return dataset_ / kFolder; }

  struct Taken {
    std::string id;
    bool changed = false;  // false: the same content as the latest snapshot (nothing added)
    std::size_t newObjects = 0;
  };
  // Hashes every file under the dataset (the store itself and nothing else left out), keeps the
  // contents not yet stored, writes the manifest and the log entry. Throws Error(Io) naming a
  // file that cannot be read or written; CancelledError (nothing recorded).
  Taken snapshot(const std::string& message, ProgressSink& progress) const;

  // One shard of a snapshot taken by several processes or machines at once (`dataset snapshot
  // --shard K/N`): of the files sorted by path, those at positions p with p % count == index
  // (0-based) hashed and stored; `listed` is how many files the dataset held.
  struct ShardPart {
    std::size_t index = 0, count = 1, listed = 0;
    std::vector<SnapshotFile> files;
    nlohmann::json toJson() const;
    // Throws Error(InvalidInput) naming `source` when `j` is not a shard part.
    static ShardPart fromJson(const nlohmann::json& j, const std::string& source);
  };
  ShardPart snapshotShard(std::size_t index, std::size_t count, ProgressSink& progress) const;
  // The snapshot of every shard's files, recorded as snapshot() records one: the same id as one
  // process gives. Throws Error(InvalidInput) when a shard is missing or given twice, when the
  // dataset's files changed since the shards listed them (a file added, removed or resized), or
  // when a shard's object is not in the store (a shard run against another copy).
  Taken snapshotFromShards(const std::vector<ShardPart>& parts, const std::string& message,
                           ProgressSink& progress) const;

  std::vector<LogEntry> log() const;  // latest first
  // The snapshot of an id or a unique prefix of at least 4 characters; Error(InvalidInput)
  // naming an unknown or ambiguous one.
  Snapshot read(const std::string& idOrPrefix) const;
  // Writes the snapshot's files into `out` (created; refused when it holds anything), each checked
  // against its digest: a damaged object is named.
  void checkout(const std::string& idOrPrefix, const std::filesystem::path& out,
                ProgressSink& progress) const;
  std::filesystem::path objectPath(const std::string& sha256) const;

 private:
  // Every file under the dataset but the store, sorted by path, with sizes (no digests yet).
  std::vector<SnapshotFile> listFiles() const;
  // Hashes the files at positions p % count == index and stores the contents not yet stored.
  std::vector<SnapshotFile> hashAndStore(const std::vector<SnapshotFile>& listed, std::size_t index,
                                         std::size_t count, ProgressSink& progress,
                                         std::size_t& newObjects) const;
  // Writes the manifest and the log entry of `files` (unless unchanged since the latest).
  Taken record(std::vector<SnapshotFile> files, const std::string& message, std::size_t newObjects,
               ProgressSink& progress) const;

  std::filesystem::path dataset_;
};

// Each folder kept as a snapshot with `message` (what the upload window does before sending the
// cases added from them); the folders with their snapshot ids, in order. Throws what snapshot()
// throws.
std::vector<std::pair<std::string, std::string>> snapshotEach(
    const std::vector<std::filesystem::path>& folders, const std::string& message,
    ProgressSink& progress);

// The id of a file list (sorted by path).
std::string snapshotId(const std::vector<SnapshotFile>& files);

}  // namespace delineate::core::dataset
