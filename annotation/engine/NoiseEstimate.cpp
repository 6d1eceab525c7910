#include "annotation/engine/NoiseEstimate.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "annotation/engine/RoiImage.h"
#include "annotation/ops/BoxMask.h"

namespace delineate::annotation {

namespace {

// Pairs `stride` voxels apart are compared as well as neighbours: interpolated images (MR
// zero-filled in k-space, a CT resampled from thick slices, a crop resampled for a model) have
// noise correlated over a voxel or two, so that neighbours differ less than the noise. White
// noise gives about the same at every stride, texture a little more at longer ones; only when
// pairs two apart differ clearly more than neighbours is the noise taken as correlated and the
// largest estimate over the strides used.
constexpr std::size_t kStrides = 3;
constexpr double kCorrelatedRatio = 1.4;

// sds[s - 1]: the estimate from pairs s apart (0 when there were none).
double combineStrides(const std::array<double, kStrides>& sds) {
  if (sds[1] <= kCorrelatedRatio * sds[0]) {
    return sds[0];
  }
  return *std::max_element(sds.begin(), sds.end());
}

// Appends |v(x+s) - v(x)| for (up to ~1 M) pairs along x of the block.
void appendDifferences(const std::vector<float>& values, const core::Size3& n, std::size_t s,
                       std::vector<float>& diffs) {
  if (n[0] <= s) {
    return;
  }
  const std::size_t rows = n[1] * n[2];
  const std::size_t step = std::max<std::size_t>(1, rows * (n[0] - s) / 1000000);
  for (std::size_t r = 0; r < rows; r += step) {
    const float* row = values.data() + r * n[0];
    for (std::size_t x = 0; x + s < n[0]; ++x) {
      diffs.push_back(std::abs(row[x + s] - row[x]));
    }
  }
}

}  // namespace

double sdFromDifferences(std::vector<float>& diffs, double floor) {
  if (diffs.empty()) {
    return floor;
  }
  // The lower quartile: edges and texture add large differences, which move it less than the
  // median. For white noise of SD s, |difference| has lower quartile 0.3186 * s * sqrt(2).
  auto q = diffs.begin() + std::ptrdiff_t(diffs.size() / 4);
  std::nth_element(diffs.begin(), q, diffs.end());
  return std::max(floor, double(*q) / (0.3186 * std::sqrt(2.0)));
}

double estimateNoiseSd(const std::vector<float>& values, const core::Size3& n, double floor) {
  std::array<double, kStrides> sds{};
  for (std::size_t s = 1; s <= kStrides; ++s) {
    std::vector<float> diffs;
    appendDifferences(values, n, s, diffs);
    sds[s - 1] = s == 1 || !diffs.empty() ? sdFromDifferences(diffs, floor) : 0.0;
  }
  return combineStrides(sds);
}

double estimateNoiseSd(const core::Volume& image) {
  const core::Size3& n = image.geometry().size;
  const auto [lo, hi] = image.valueRange();
  const double floor = std::max(0.5, 1e-4 * (hi - lo));
  std::array<double, kStrides> sds{};
  sds[0] = floor;
  for (std::size_t s = 1; s <= kStrides && n[0] > s; ++s) {
    std::vector<float> diffs;
    const std::size_t rows = n[1] * n[2];
    const std::size_t step = std::max<std::size_t>(1, rows * (n[0] - s) / 1000000);
    core::dispatchScalar(image.scalarType(), [&](auto tag) {
      using T = decltype(tag);
      const T* data = image.data<T>();
      for (std::size_t r = 0; r < rows; r += step) {
        const T* row = data + r * n[0];
        for (std::size_t x = 0; x + s < n[0]; ++x) {
          diffs.push_back(std::abs(float(row[x + s]) - float(row[x])));
        }
      }
    });
    sds[s - 1] = sdFromDifferences(diffs, floor);
  }
  return combineStrides(sds);
}

double estimateNoiseSdNear(const core::Volume& image, const std::vector<core::Size3>& voxels,
                           double radiusMm) {
  if (voxels.empty()) {
    return 0;
  }
  const core::ImageGeometry& g = image.geometry();
  core::Size3 reach{};
  for (int a = 0; a < 3; ++a) {
    reach[a] = std::size_t(std::ceil(radiusMm / g.spacing[a]));
  }
  std::array<std::vector<float>, kStrides> diffs;
  for (const core::Size3& v : voxels) {
    core::VoxelBox box;
    box.include(v[0], v[1], v[2]);
    box = padded(box, reach, g.size);
    if (!box.empty()) {
      const std::vector<float> values = extractValues(image, box);
      const core::Size3 n{box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]};
      for (std::size_t s = 1; s <= kStrides; ++s) {
        appendDifferences(values, n, s, diffs[s - 1]);
      }
    }
  }
  const auto [lo, hi] = image.valueRange();
  const double floor = std::max(0.5, 1e-4 * (hi - lo));
  std::array<double, kStrides> sds{};
  for (std::size_t s = 1; s <= kStrides; ++s) {
    sds[s - 1] = s == 1 || !diffs[s - 1].empty() ? sdFromDifferences(diffs[s - 1], floor) : 0.0;
  }
  return combineStrides(sds);
}

}  // namespace delineate::annotation
