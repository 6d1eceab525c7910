#pragma once
// What a reviewer decided when adjudicating several readers' versions of one structure: for every
// disagreement region, whose version the signed map keeps there (a reader's, or "edited" when it
// matches none), how each reader's map was made (AI backend and model, editing tools), with the
// reviewer's name and the signing time. Saved as JSON beside the
// adjudicated label map (brain_seg.nii.gz -> brain_seg.adjudication.json). Format:
// docs/metrics.md, "Adjudication record".
#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace delineate::core {

struct AdjudicatedRegion {
  std::size_t voxels = 0;
  std::array<std::size_t, 3> centre{0, 0, 0};  // voxel indices
  std::string source;  // the reader whose version the map keeps, or "edited"
  // The fraction of the region's voxels where the map agrees with each reader.
  std::vector<double> agreement;
  bool operator==(const AdjudicatedRegion&) const = default;
};

struct AdjudicationRecord {
  std::string structure;             // the segment adjudicated
  std::string labelMap;              // the adjudicated map's name
  std::vector<std::string> readers;  // in the order of every per-reader list
  // How each reader's map was made, from its correction record when it has one ("AI: <backend>,
  // model <model>; tools: brush 4, eraser 1"); empty when nothing says.
  std::vector<std::string> readerTools;
  std::string reviewer;
  std::string signedAt;  // UTC, "2024-05-01T12:34:56Z"
  std::vector<AdjudicatedRegion> regions;
  bool operator==(const AdjudicationRecord&) const = default;
};

// The record's file beside a label map: like correctionRecordPath, with ".adjudication.json".
std::filesystem::path adjudicationRecordPath(const std::filesystem::path& labelMapPath);

// JSON text and back. Reading throws Error(InvalidInput) naming `source` for text that is not an
// adjudication record.
std::string adjudicationRecordJson(const AdjudicationRecord& record);
AdjudicationRecord adjudicationRecordFromJson(const std::string& text, const std::string& source);

// Written atomically; Error(Io) naming the file.
void writeAdjudicationRecord(const AdjudicationRecord& record, const std::filesystem::path& path);
AdjudicationRecord readAdjudicationRecord(const std::filesystem::path& path);

}  // namespace delineate::core
