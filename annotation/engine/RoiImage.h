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
  // The same for the voxel (x, y, z) of the box (at = its work-array index), without the
  // divisions that find its position.
  bool flat(std::size_t at, std::size_t x, std::size_t y, std::size_t z) const {
    const core::Size3 n = grid.extent();
    const std::size_t nx = n[0], nxy = n[0] * n[1];
    const std::size_t lo[3] = {x > 0 ? at - 1 : at, y > 0 ? at - nx : at, z > 0 ? at - nxy : at};
    const std::size_t hi[3] = {x + 1 < n[0] ? at + 1 : at, y + 1 < n[1] ? at + nx : at,
                               z + 1 < n[2] ? at + nxy : at};
    const std::size_t stride[3] = {1, nx, nxy};
    float g2 = 0;
    for (int a = 0; a < 3; ++a) {
      const float d =
          (smooth[hi[a]] - smooth[lo[a]]) * (hi[a] - lo[a] == 2 * stride[a] ? 0.5f : 1.0f);
      g2 += d * d;
    }
    const float limit = float(4.0 * smoothNoiseSd);
    return g2 < limit * limit;
  }
};

// How much the smoothed values vary within a tissue, measured on them: from the lower quartile of
// the differences between voxels kVariationLag apart along x (pairs in the constant fill around
// the image left out). On white noise this is about smoothNoiseSd; on an image whose tissues
// vary by far more than its noise (an average of many scans, anatomy with texture) it is larger.
double smoothedVariationSd(const RoiImage& roi);

// The voxels of `box` (clipped to the image) as floats.
std::vector<float> extractValues(const core::Volume& image, const core::VoxelBox& box);

// `box` of the image: raw values, and smoothed ones from `cache`. `noiseSd` is the noise where
// the user clicked (0: the whole image's); one over 3 times the whole image's counts the edges
// amid which it was measured (a folded cortex) and is replaced by 1.5 times the whole image's.
// smoothNoiseSd follows from it and the cache's smoothing.
RoiImage makeRoiImage(const core::Volume& image, const core::VoxelBox& box, double noiseSd,
                      SmoothedImageCache& cache, core::ProgressSink& progress);

}  // namespace delineate::annotation
