#pragma once
// How many readers marked each voxel with one structure: the map the readers view draws over the
// slices (docs/metrics.md, "Readers' votes and disagreement regions"). The structure is found in
// each reader's map by segment name when it has one, else by label value, as the agreement
// matrix pairs labels.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Segment.h"

namespace delineate::core {

struct ReaderVotes {
  // Value n (1..readers): n readers marked the voxel; 0: none did. Segments: voteSegments().
  std::shared_ptr<LabelMap> map;
  // The structure's label value in each reader's map (0: that reader has no such segment).
  std::vector<std::uint16_t> values;
  // [n]: voxels marked by exactly n readers (index 0 unused).
  std::vector<std::size_t> histogram;
  std::size_t readers() const { return values.size(); }
  // Voxels marked by some readers but not all.
  std::size_t disagreeing() const;
};

// The structure's value in `map`: the segment named `name` when `name` is not empty and the map
// has a segment table (0 when none has that name), else `fallback`.
std::uint16_t readerLabelValue(const LabelMap& map, const std::string& name,
                               std::uint16_t fallback);

// Segments "1 of N readers" ... "N of N readers" (values 1..N): from vermilion (one reader) through
// yellow to bluish green for all N (Okabe & Ito's colour-blind-safe palette).
std::vector<Segment> voteSegments(std::size_t readers);

// Throws Error(InvalidInput) for fewer than two readers or a reader on another grid (named);
// CancelledError. Parallel over z-slabs.
ReaderVotes readerVotes(const std::vector<const LabelMap*>& readers, const std::string& name,
                        std::uint16_t fallback, ProgressSink& progress);

}  // namespace delineate::core
