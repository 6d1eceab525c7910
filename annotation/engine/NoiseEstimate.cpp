#include "annotation/engine/NoiseEstimate.h"

#include <algorithm>
#include <cmath>

#include "annotation/engine/RoiImage.h"
#include "annotation/ops/BoxMask.h"

namespace delineate::annotation {

namespace {

// Appends |v(x+1) - v(x)| for (up to ~1 M) neighbour pairs along x of the block.
void appendDifferences(const std::vector<float>& values, const core::Size3& n,
                       std::vector<float>& diffs) {
  if (n[0] < 2) {
    return;
  }
  const std::size_t rows = n[1] * n[2];
  const std::size_t step = std::max<std::size_t>(1, rows * (n[0] - 1) / 1000000);
  for (std::size_t r = 0; r < rows; r += step) {
    const float* row = values.data() + r * n[0];
    for (std::size_t x = 0; x + 1 < n[0]; ++x) {
      diffs.push_back(std::abs(row[x + 1] - row[x]));
    }
  }
}

// The lower quartile: edges and texture add large differences, which move it less than the
// median. For white noise of SD s, |difference| has lower quartile 0.3186 * s * sqrt(2).
double sdFromDifferences(std::vector<float>& diffs, double floor) {
  if (diffs.empty()) {
    return floor;
  }
  auto q = diffs.begin() + std::ptrdiff_t(diffs.size() / 4);
  std::nth_element(diffs.begin(), q, diffs.end());
  return std::max(floor, double(*q) / (0.3186 * std::sqrt(2.0)));
}

}  // namespace

double estimateNoiseSd(const std::vector<float>& values, const core::Size3& n, double floor) {
  std::vector<float> diffs;
  appendDifferences(values, n, diffs);
  return sdFromDifferences(diffs, floor);
}

double estimateNoiseSd(const core::Volume& image) {
  const core::Size3& n = image.geometry().size;
  std::vector<float> diffs;
  if (n[0] >= 2) {
    const std::size_t rows = n[1] * n[2];
    const std::size_t step = std::max<std::size_t>(1, rows * (n[0] - 1) / 1000000);
    core::dispatchScalar(image.scalarType(), [&](auto tag) {
      using T = decltype(tag);
      const T* data = image.data<T>();
      for (std::size_t r = 0; r < rows; r += step) {
        const T* row = data + r * n[0];
        for (std::size_t x = 0; x + 1 < n[0]; ++x) {
          diffs.push_back(std::abs(float(row[x + 1]) - float(row[x])));
        }
      }
    });
  }
  const auto [lo, hi] = image.valueRange();
  return sdFromDifferences(diffs, std::max(0.5, 1e-4 * (hi - lo)));
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
  std::vector<float> diffs;
  for (const core::Size3& v : voxels) {
    core::VoxelBox box;
    box.include(v[0], v[1], v[2]);
    box = padded(box, reach, g.size);
    if (!box.empty()) {
      appendDifferences(extractValues(image, box),
                        {box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]},
                        diffs);
    }
  }
  const auto [lo, hi] = image.valueRange();
  return sdFromDifferences(diffs, std::max(0.5, 1e-4 * (hi - lo)));
}

}  // namespace delineate::annotation
