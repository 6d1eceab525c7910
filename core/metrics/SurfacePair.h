#pragma once
// The surfaces of one label in a reference and a test map, inside the label's bounding box over
// both maps, and the exact Euclidean distance (mm, spacing-aware) from every voxel of each
// surface to the nearest voxel of the other. SurfaceDistances turns these into statistics.
//
// A surface voxel is a voxel of the label with a face neighbour (6-neighbourhood) not of the
// label or outside the grid. Distances are separable: first along each row of the box (the
// distance to the nearest surface voxel of the other map in that row, kept in voxels), then over
// the other two axes by a search outwards from each query voxel, pruned by the best distance
// found so far — cheap when the surfaces are close, as they are for segmentations worth
// comparing. When the searches grow costlier than a full transform, the label falls back to an
// exact separable transform (ParabolaEnvelope along the second axis, then the same outward
// search, or the column's envelope, along the third). Both give the minimum over all surface
// voxels of the other map.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

class SurfacePair {
 public:
  // `box` must hold every voxel of `label` in both maps and lie inside the grid; the maps must be
  // on one grid (not checked here). Throws Error(Unsupported) for a box wider than 65534 voxels
  // along i or longer than 2^21 along j or k.
  SurfacePair(const LabelMap& reference, const LabelMap& test, std::uint16_t label,
              const VoxelBox& box);

  // Finds both surfaces and the distances along the first axis; parallel, cancellable.
  void markSurfaces(ProgressSink& progress);
  std::size_t referenceSurfaceVoxels() const { return surfaceVoxels_[0]; }
  std::size_t testSurfaceVoxels() const { return surfaceVoxels_[1]; }

  // After markSurfaces(), with both surfaces non-empty: the distance (mm) from each reference
  // surface voxel to the test surface, and from each test surface voxel to the reference
  // surface, in no particular order. Parallel, cancellable.
  void distances(std::vector<double>& referenceToTest, std::vector<double>& testToReference,
                 ProgressSink& progress);

  // Whether the last distances() call needed the full transform (for tests and benchmarks).
  bool usedFullTransform() const { return usedFullTransform_; }

 private:
  bool searchDistances(std::vector<double> (&out)[2], ProgressSink& progress);
  void transformDistances(std::vector<double> (&out)[2], ProgressSink& progress);
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const {
    return i + n_[0] * (j + n_[1] * k);
  }

  const LabelMap& reference_;
  const LabelMap& test_;
  std::uint16_t label_;
  Size3 lo_;     // the box in the map
  Size3 n_;      // its size
  double w_[3];  // squared spacing per axis
  // Per surface s (0 reference, 1 test): for every box voxel, the distance in voxels along its
  // row to the nearest voxel of the other surface (0xffff: none in the row); and the surface's
  // voxels per slice k, packed as (j << 32 | i).
  std::vector<std::uint16_t> rowDistance_[2];
  std::vector<std::vector<std::uint64_t>> queries_[2];
  std::size_t surfaceVoxels_[2] = {0, 0};
  bool usedFullTransform_ = false;
};

}  // namespace delineate::core
