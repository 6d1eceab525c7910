#include "annotation/engine/RoiImage.h"

#include <algorithm>
#include <cmath>

#include "annotation/engine/EdgePreservingSmooth.h"
#include "annotation/engine/NoiseEstimate.h"

namespace delineate::annotation {

namespace {

// The noise where the user clicked is believed up to this many times the whole image's (noise
// varies over an image: coil sensitivity, the body's width in CT). Beyond, pairs of neighbours
// there differ by edges rather than noise (a folded cortex: edges everywhere), and the noise is
// taken as kEdgeLocalNoiseRatio times the whole image's.
constexpr double kBelievedLocalNoiseRatio = 3.0;
constexpr double kEdgeLocalNoiseRatio = 1.5;
// Pairs this many voxels apart no longer share the smoothing's noise (the smoothing reaches
// about a voxel and a half), so that their differences show the noise and texture left.
constexpr std::size_t kVariationLag = 3;
constexpr std::size_t kMaxVariationPairs = 1000000;

}  // namespace

std::vector<float> extractValues(const core::Volume& image, const core::VoxelBox& box) {
  const core::Size3& size = image.geometry().size;
  std::vector<float> out(box.count());
  core::dispatchScalar(image.scalarType(), [&](auto tag) {
    using T = decltype(tag);
    const T* data = image.data<T>();
    float* dst = out.data();
    for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
      for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
        const T* row = data + size[0] * (j + size[1] * k);
        for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
          *dst++ = static_cast<float>(row[i]);
        }
      }
    }
  });
  return out;
}

double smoothedVariationSd(const RoiImage& roi) {
  const core::Size3 n = roi.grid.extent();
  if (n[0] <= kVariationLag || roi.raw.empty()) {
    return roi.smoothNoiseSd;
  }
  const float padding = *std::min_element(roi.raw.begin(), roi.raw.end());
  const std::size_t rows = n[1] * n[2];
  const std::size_t step =
      std::max<std::size_t>(1, rows * (n[0] - kVariationLag) / kMaxVariationPairs);
  std::vector<float> diffs;
  for (std::size_t r = 0; r < rows; r += step) {
    const float* raw = roi.raw.data() + r * n[0];
    const float* smooth = roi.smooth.data() + r * n[0];
    for (std::size_t x = 0; x + kVariationLag < n[0]; ++x) {
      if (raw[x] != padding || raw[x + kVariationLag] != padding) {
        diffs.push_back(std::abs(smooth[x + kVariationLag] - smooth[x]));
      }
    }
  }
  return diffs.empty() ? roi.smoothNoiseSd : sdFromDifferences(diffs, 0.0);
}

float RoiImage::gradient2(std::size_t at) const {
  const core::Size3 n = grid.extent();
  const std::size_t stride[3] = {1, n[0], n[0] * n[1]};
  const std::size_t pos[3] = {at % n[0], (at / n[0]) % n[1], at / (n[0] * n[1])};
  float g2 = 0;
  for (int a = 0; a < 3; ++a) {
    const std::size_t lo = pos[a] > 0 ? at - stride[a] : at;
    const std::size_t hi = pos[a] + 1 < n[a] ? at + stride[a] : at;
    const float d = (smooth[hi] - smooth[lo]) * (hi - lo == 2 * stride[a] ? 0.5f : 1.0f);
    g2 += d * d;
  }
  return g2;
}

bool RoiImage::flat(std::size_t at) const {
  const float limit = float(4.0 * smoothNoiseSd);
  return gradient2(at) < limit * limit;
}

RoiImage makeRoiImage(const core::Volume& image, const core::VoxelBox& box, double noiseSd,
                      SmoothedImageCache& cache, core::ProgressSink& progress) {
  RoiImage roi;
  roi.grid.box = box;
  roi.grid.spacing = image.geometry().spacing;
  roi.raw = extractValues(image, box);
  SmoothedImageCache::Region smoothed = cache.region(image, box, progress);
  roi.smooth = std::move(smoothed.smooth);
  roi.noiseSd = smoothed.noiseSd;
  if (noiseSd > 0) {
    roi.noiseSd = noiseSd <= kBelievedLocalNoiseRatio * smoothed.noiseSd
                      ? noiseSd
                      : kEdgeLocalNoiseRatio * smoothed.noiseSd;
  }
  BilateralParams params;
  params.rangeSd = smoothed.rangeSd;
  params.spatialSdMm = std::min({roi.grid.spacing[0], roi.grid.spacing[1], roi.grid.spacing[2]});
  params.passes = 2;
  roi.smoothNoiseSd = roi.noiseSd * bilateralNoiseFactor(roi.grid.spacing, params, roi.noiseSd);
  return roi;
}

}  // namespace delineate::annotation
