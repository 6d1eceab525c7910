#pragma once
// The local study cache: the folder where retrieved studies are kept, one sub-folder per Study
// Instance UID holding one folder per series (the layout of C-GET, C-MOVE and WADO-RS). Each
// study remembers when it was last used (a `.last-used` file's time); the cache keeps under a
// size limit by removing the studies used longest ago, never the ones in use. Its studies can be
// listed like a PACS's answer, read from the files themselves.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

struct CachedStudy {
  std::string studyInstanceUid;
  std::filesystem::path folder;
  std::uintmax_t bytes = 0;
  std::filesystem::file_time_type lastUsed;
};

class StudyCache {
 public:
  explicit StudyCache(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path studyFolder(const std::string& studyInstanceUid) const;

  // Every study folder, most recently used first.
  std::vector<CachedStudy> studies() const;
  std::uintmax_t totalBytes() const;
  // Marks the study as used now.
  void touch(const std::string& studyInstanceUid) const;
  // Removes the least recently used studies until the cache holds at most `limitBytes`, never
  // one in `keep`. Returns the UIDs removed.
  std::vector<std::string> evict(std::uintmax_t limitBytes,
                                 const std::set<std::string>& keep) const;

  // What it holds, as a search answer: patient, date, description and modalities from the first
  // file of each series, counts from the folders. Most recently used first.
  std::vector<StudyRecord> records(ProgressSink& progress) const;
  std::vector<SeriesRecord> seriesOf(const std::string& studyInstanceUid) const;

 private:
  std::filesystem::path root_;
};

}  // namespace delineate::core::pacs
