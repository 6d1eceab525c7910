#pragma once
// Where a label map of a snapshot came from, as the records beside it say. Its correction record
// (saved beside a label map made from an AI proposal, core/metrics/CorrectionRecord.h): the AI
// backend and model, when the proposal was accepted and the map saved, the clicks, strokes and
// tools that corrected it, the active editing time, and per segment the Dice between the proposal
// and the final label. Its adjudication record (core/metrics/AdjudicationRecord.h): the readers,
// the reviewer who signed and when, and how many disagreement regions kept each reader's version.
// Kept in the snapshot's manifest (not part of its id: the record is a file of the snapshot
// already), shown by `delineate-cli dataset show`. docs/datasets.md.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace delineate::core::dataset {

struct SnapshotFile;

struct LabelProvenance {
  std::string labelFile;   // the label map's path in the dataset
  std::string recordFile;  // its correction record's path
  std::string reader;      // who edited the map (the correction record's reader)
  std::string backend, model, modelVersion, acceptedAt, savedAt;
  int clicks = 0;
  int strokes = 0;
  std::map<std::string, int> tools;  // tool id -> uses
  double activeEditingSeconds = 0;
  std::vector<std::pair<std::string, double>> segmentDice;  // proposal against final
  // From the adjudication record, when there is one (adjudicationFile not empty).
  std::string adjudicationFile, reviewer, signedAt;
  std::vector<std::string> readers;
  std::vector<std::string> readerTools;      // how each reader's map was made (may be empty)
  std::map<std::string, int> regionSources;  // "Dr A" / "Dr A, Dr B" / "edited" -> regions
  // The de-identification its folder went through: the nearest deidentification.json (written by
  // `delineate-cli deid` into its output) in the label's folder or one above it in the dataset.
  std::string deidentificationFile, deidentification;
  std::string problem;  // why a record could not be read; empty when they were

  nlohmann::json toJson() const;
  static LabelProvenance fromJson(const nlohmann::json& j);
};

// The provenance of every label map (.nii.gz, .nii, .nrrd, .nhdr, .mha, .mhd, .dcm) of `files`
// (sorted by path) whose correction or adjudication record is a file of `files` too, in path order;
// `text` gives a file's content. A record that cannot be read gives an entry with its `problem`,
// never an exception.
std::vector<LabelProvenance> provenanceOf(
    const std::vector<SnapshotFile>& files,
    const std::function<std::string(const SnapshotFile&)>& text);

}  // namespace delineate::core::dataset
