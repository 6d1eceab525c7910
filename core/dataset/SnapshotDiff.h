#pragma once
// What changed between two snapshots of a dataset: files added, removed and changed; for a changed
// label map (a NIfTI, NRRD or MetaImage file whose path names labels, segmentations, masks or
// ground truth), the Dice between its two versions for every label either version has, so that
// "the reader corrected the liver" reads as "liver 0.93". docs/datasets.md.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dataset/DatasetStore.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core::dataset {

struct LabelChange {
  std::uint16_t label = 0;
  std::string name;
  double dice = 0;  // between the two versions
};

struct ChangedFile {
  std::string path;
  std::vector<LabelChange> labels;  // empty when not a label map
  std::string note;                 // why no Dice ("another grid", "not a label map")
};

struct SnapshotDiff {
  std::string from, to;  // snapshot ids
  std::vector<std::string> added, removed;
  std::vector<ChangedFile> changed;
  nlohmann::json toJson() const;
};

// Whether a path looks like a label map by its name (folder or file): "label", "seg", "mask",
// "truth" or "gt" as a word part, with a label image extension.
bool looksLikeLabelMap(const std::string& path);

SnapshotDiff diffSnapshots(const DatasetStore& store, const std::string& from,
                           const std::string& to, ProgressSink& progress);

}  // namespace delineate::core::dataset
