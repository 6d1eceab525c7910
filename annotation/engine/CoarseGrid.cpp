#include "annotation/engine/CoarseGrid.h"

#include <algorithm>
#include <cstdint>

#include "annotation/engine/RoiImage.h"

namespace delineate::annotation {

std::size_t coarseFactor(std::size_t count, std::size_t maxVoxels) {
  std::size_t f = 1;
  while (count / (f * f * f) > maxVoxels) {
    ++f;
  }
  return f;
}

core::VolumePtr coarseImage(const core::Volume& image, const core::VoxelBox& roi, std::size_t f) {
  const core::Size3 n{roi.hi[0] - roi.lo[0], roi.hi[1] - roi.lo[1], roi.hi[2] - roi.lo[2]};
  const core::Size3 nc{(n[0] + f - 1) / f, (n[1] + f - 1) / f, (n[2] + f - 1) / f};
  const std::vector<float> values = extractValues(image, roi);
  std::vector<double> sum(nc[0] * nc[1] * nc[2], 0.0);
  std::vector<std::uint32_t> count(sum.size(), 0);
  for (std::size_t z = 0, at = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      for (std::size_t x = 0; x < n[0]; ++x, ++at) {
        const std::size_t c = x / f + nc[0] * (y / f + nc[1] * (z / f));
        sum[c] += values[at];
        ++count[c];
      }
    }
  }
  core::ImageGeometry g = image.geometry();
  g.origin = g.indexToWorld({double(roi.lo[0]) + 0.5 * double(f - 1),
                             double(roi.lo[1]) + 0.5 * double(f - 1),
                             double(roi.lo[2]) + 0.5 * double(f - 1)});
  g.size = nc;
  for (int a = 0; a < 3; ++a) {
    g.spacing[a] *= double(f);
  }
  auto buffer = std::make_shared<core::VoxelBuffer>(core::ScalarType::Float32, sum.size());
  float* out = buffer->as<float>();
  for (std::size_t c = 0; c < sum.size(); ++c) {
    out[c] = float(sum[c] / double(std::max<std::uint32_t>(1, count[c])));
  }
  return std::make_shared<core::Volume>(g, buffer, core::VolumeInfo{});
}

core::Size3 coarseVoxel(const core::Size3& v, const core::VoxelBox& roi, std::size_t f) {
  return {(v[0] - roi.lo[0]) / f, (v[1] - roi.lo[1]) / f, (v[2] - roi.lo[2]) / f};
}

BoxMask fineMask(const BoxMask& coarse, const core::VoxelBox& roi, std::size_t f) {
  core::VoxelBox covered;
  for (int a = 0; a < 3; ++a) {
    covered.lo[a] = std::min(roi.hi[a], roi.lo[a] + coarse.box.lo[a] * f);
    covered.hi[a] = std::min(roi.hi[a], roi.lo[a] + coarse.box.hi[a] * f);
  }
  BoxMask out(covered);
  for (std::size_t z = covered.lo[2], at = 0; z < covered.hi[2]; ++z) {
    for (std::size_t y = covered.lo[1]; y < covered.hi[1]; ++y) {
      for (std::size_t x = covered.lo[0]; x < covered.hi[0]; ++x, ++at) {
        const core::Size3 c = coarseVoxel({x, y, z}, roi, f);
        out.bits[at] = coarse.at(c[0], c[1], c[2]);
      }
    }
  }
  return out;
}

}  // namespace delineate::annotation
