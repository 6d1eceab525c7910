#pragma once
// Surface distances of one label between a reference and a test label map on the same grid:
// Hausdorff distance, its percentile (HD95), average symmetric surface distance (ASSD) and
// surface Dice at a tolerance, all in mm. Exact definitions and empty-mask conventions:
// docs/metrics.md.
//
// The surface of a mask is its face-connected boundary: voxels of the label with at least one of
// their 6 face neighbours not of the label or outside the grid. Distances are Euclidean between
// voxel centres, in mm (spacing-aware; the direction matrix is a rotation and changes nothing).
// The distance from each surface voxel of one map to the nearest surface voxel of the other is
// exact (SurfacePair: a separable Euclidean distance transform restricted to the label's
// bounding box over both maps, evaluated only at the other surface's voxels).
#include <cstddef>
#include <cstdint>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

// The distances from every surface voxel of one map to the other map's surface.
struct DirectedDistances {
  std::size_t surfaceVoxels = 0;    // surface voxels the distances start from
  double maxMm = 0;                 // largest distance
  double meanMm = 0;                // mean distance
  double percentileMm = 0;          // the requested percentile (linear interpolation)
  std::size_t withinTolerance = 0;  // distances <= the tolerance
};

struct SurfaceDistanceOptions {
  double toleranceMm = 1.0;  // for surface Dice
  double percentile = 95.0;  // for the percentile Hausdorff distance, in [0, 100]
};

struct SurfaceDistanceResult {
  DirectedDistances referenceToTest;
  DirectedDistances testToReference;
  double hausdorffMm = 0;            // max of the two directed maxima
  double hausdorffPercentileMm = 0;  // max of the two directed percentiles (HD95)
  double averageSymmetricMm = 0;     // mean of the pooled distances of both directions (ASSD)
  double surfaceDice = 1;            // pooled fraction of distances within the tolerance
};

// `box` must hold every voxel of `label` in both maps (LabelOverlap::unionBox()); an empty box
// means the label is in neither. Parallel over slices on hardwareThreads() threads; cancellable.
// Throws Error(InvalidInput) when the grids differ.
SurfaceDistanceResult surfaceDistances(const LabelMap& reference, const LabelMap& test,
                                       std::uint16_t label, const VoxelBox& box,
                                       const SurfaceDistanceOptions& options,
                                       ProgressSink& progress);

}  // namespace delineate::core
