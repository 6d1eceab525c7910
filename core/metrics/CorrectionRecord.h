#pragma once
// What a user changed when editing an AI proposal into a final label map: per label the
// proposal-vs-final agreement, the voxels added and removed per slice, and how much editing it
// took. Saved as JSON beside the label map (brain_seg.nii.gz -> brain_seg.correction.json).
// Measured by CorrectionMeasurement; the format: docs/metrics.md.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace delineate::core {

// One slice k (the third index axis: axial for axis-aligned images) that the user changed.
struct CorrectionSlice {
  std::size_t k = 0;
  std::size_t added = 0;    // voxels of the final label not in the proposal
  std::size_t removed = 0;  // voxels of the proposal not in the final label
  bool operator==(const CorrectionSlice&) const = default;
};

struct CorrectionLabel {
  std::uint16_t label = 0;          // value in the final map
  std::uint16_t proposalLabel = 0;  // value in the proposal
  std::string segment;              // segment name
  // Proposal (reference) against final (test), as compareLabelMaps measures them; infinite
  // distances when one of the two is empty (docs/metrics.md, "Empty masks").
  double dice = 1;
  double hd95Mm = 0;
  double hausdorffMm = 0;
  double assdMm = 0;
  std::size_t proposalVoxels = 0;
  std::size_t finalVoxels = 0;
  std::size_t addedVoxels = 0;
  std::size_t removedVoxels = 0;
  std::vector<CorrectionSlice> slices;  // k increasing, only slices with changes
  bool operator==(const CorrectionLabel&) const = default;
};

struct CorrectionRecord {
  std::string labelMap;              // the saved label map file
  std::string image;                 // the image it annotates
  std::string reader;                // who edited it (AI server sign-in, else the login name)
  std::string backend;               // the AI backend that proposed it
  std::string model;                 // the backend's model
  std::string modelVersion;          // its version, when the server gave one
  std::string acceptedAt;            // when the proposal was accepted, ISO 8601 UTC (utcTimestamp)
  std::string savedAt;               // when the label map was saved, ISO 8601 UTC
  int clicks = 0;                    // interactive clicks (points) after accepting
  int strokes = 0;                   // brush, eraser and other edit strokes
  std::map<std::string, int> tools;  // tool id -> uses
  double activeEditingSeconds = 0;   // ActiveTimeTracker
  std::vector<CorrectionLabel> labels;
  bool operator==(const CorrectionRecord&) const = default;
};

// How the map was made, in one line: "reader Dr A; AI: <backend>, model <model>; 3 clicks;
// tools: brush 4, eraser 1" (parts without content left out; empty for an empty record).
std::string correctionSummary(const CorrectionRecord& record);

// "2024-05-01T12:34:56Z".
std::string utcTimestamp(std::chrono::system_clock::time_point time);

// The record's file beside a label map: its name without the label map extension (.nii.gz,
// .nii, .seg.nrrd, .nrrd, .nhdr, .mha, .mhd, .dcm; any case; else the last extension) plus
// ".correction.json".
std::filesystem::path correctionRecordPath(const std::filesystem::path& labelMapPath);
// The same stem with any `suffix` (".adjudication.json"): the files kept beside a label map.
std::filesystem::path labelMapSidecarPath(const std::filesystem::path& labelMapPath,
                                          const std::string& suffix);

// JSON text and back. Non-finite numbers are the strings "inf", "-inf", "nan". Reading throws
// Error(InvalidInput) naming `source` for text that is not JSON, not a correction record, or has
// a field of the wrong type; Error(Unsupported) for a newer format version.
std::string correctionRecordJson(const CorrectionRecord& record);
CorrectionRecord correctionRecordFromJson(const std::string& text, const std::string& source);

// Written atomically (a temporary beside the file, renamed over it); Error(Io) naming the file
// when it cannot be written or read.
void writeCorrectionRecord(const CorrectionRecord& record, const std::filesystem::path& path);
CorrectionRecord readCorrectionRecord(const std::filesystem::path& path);

}  // namespace delineate::core
