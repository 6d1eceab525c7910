#pragma once
// Where readers disagree about one structure: the 6-connected regions of voxels that some but not
// all readers marked (values 1..N-1 of a ReaderVotes map), largest first. The readers view steps
// through them and adjudication decides each one (docs/metrics.md, "Readers' votes and
// disagreement regions").
#include <array>
#include <cstddef>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/ReaderVotes.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

struct DisagreementRegion {
  std::vector<std::size_t> voxels;  // linear indices into the map, ascending
  VoxelBox box;
  // The region's voxel nearest its centroid (where the views go).
  std::array<std::size_t, 3> centre{0, 0, 0};
  // Per reader: how many of the region's voxels that reader marked, and which ([reader][n]: the
  // reader marked voxels[n]), so that adjudication needs no copy of the readers' maps.
  std::vector<std::size_t> marked;
  std::vector<std::vector<bool>> markedBy;
};

// Regions of at least `minVoxels` voxels, largest first (ties: the one whose first voxel comes
// first). `readers` are the maps the votes were counted from, in the same order. CancelledError.
std::vector<DisagreementRegion> disagreementRegions(const ReaderVotes& votes,
                                                    const std::vector<const LabelMap*>& readers,
                                                    std::size_t minVoxels, ProgressSink& progress);

}  // namespace delineate::core
