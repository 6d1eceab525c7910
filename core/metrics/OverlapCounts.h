#pragma once
// Voxel overlap of a reference and a test label map on the same grid, for every label at once:
// one pass over both maps counts, per label, its voxels in each map and in both, and finds its
// bounding box in each map. The overlap measures (Dice, Jaccard, ...) follow from the counts.
// Definitions and empty-mask conventions: docs/metrics.md.
#include <cstdint>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

struct LabelOverlap {
  std::uint16_t label = 0;
  std::uint64_t reference = 0;  // voxels with this label in the reference map
  std::uint64_t test = 0;       // ... in the test map
  std::uint64_t both = 0;       // ... in both (true positives)
  VoxelBox referenceBox;        // bounding box of the label in the reference map (empty if none)
  VoxelBox testBox;

  std::uint64_t falsePositives() const { return test - both; }
  std::uint64_t falseNegatives() const { return reference - both; }
  VoxelBox unionBox() const {
    VoxelBox box = referenceBox;
    box.include(testBox);
    return box;
  }
};

struct OverlapCounts {
  // Every non-zero label present in either map, in increasing label order.
  std::vector<LabelOverlap> labels;
  // The entry for `label`; an all-zero one with empty boxes when neither map has it.
  LabelOverlap find(std::uint16_t label) const;
};

// One pass over both maps, in z-slabs on hardwareThreads() threads; cancellable. Throws
// Error(InvalidInput) naming the difference when the grids differ.
OverlapCounts countOverlaps(const LabelMap& reference, const LabelMap& test,
                            ProgressSink& progress);

// Measures derived from one label's counts. Ratios whose denominator is zero are NaN, except that
// a label absent from both maps has Dice = Jaccard = sensitivity = precision = 1 and volume
// differences 0 (docs/metrics.md).
struct OverlapMeasures {
  double dice = 0;
  double jaccard = 0;
  double sensitivity = 0;  // TP / |reference|
  double precision = 0;    // TP / |test|
  double referenceMl = 0;
  double testMl = 0;
  double volumeDifferenceMl = 0;       // test - reference
  double volumeDifferencePercent = 0;  // 100 (test - reference) / reference
};

// `voxelMl`: the volume of one voxel in millilitres (spacing product / 1000).
OverlapMeasures overlapMeasures(const LabelOverlap& counts, double voxelMl);

}  // namespace delineate::core
