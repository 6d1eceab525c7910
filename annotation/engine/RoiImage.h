#pragma once
// The image inside a segmenter's region of interest, as floats: the raw values, the
// edge-preserving smoothed copy and the noise level of each.
#include <vector>

#include "annotation/engine/RoiGrid.h"
#include "annotation/engine/SmoothedImageCache.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

struct RoiImage {
  RoiGrid grid;
  std::vector<float> raw;
  std::vector<float> smooth;
  double noiseSd = 1;        // of `raw`
  double smoothNoiseSd = 1;  // of `smooth` within one tissue

  // Squared gradient magnitude of `smooth` at work-array index `at`, by central differences in
  // value per voxel step (one-sided at the box's edge).
  float gradient2(std::size_t at) const;
  // Whether the gradient at `at` stays below 4 noise SDs per voxel: inside a tissue, not on an
  // edge between two.
  bool flat(std::size_t at) const;
};

// The voxels of `box` (clipped to the image) as floats.
std::vector<float> extractValues(const core::Volume& image, const core::VoxelBox& box);

// `box` of the image: raw values, and smoothed ones from `cache`. `noiseSd` is the noise where
// the user clicked; smoothNoiseSd follows from it and the cache's smoothing.
RoiImage makeRoiImage(const core::Volume& image, const core::VoxelBox& box, double noiseSd,
                      SmoothedImageCache& cache, core::ProgressSink& progress);

}  // namespace delineate::annotation
