#include "annotation/engine/PartialVolumeRim.h"

#include <cmath>

namespace delineate::annotation {

namespace {

// The centre of the band holding `value`, else of the band nearest to it.
double tissueOf(const IntensityModel& model, float value) {
  const IntensityBand* nearest = nullptr;
  for (const IntensityBand& b : model.bands()) {
    if (value >= b.lo && value <= b.hi) {
      return b.centre;
    }
    if (!nearest || std::abs(value - b.centre) < std::abs(value - nearest->centre)) {
      nearest = &b;
    }
  }
  return nearest ? nearest->centre : value;
}

// Whether `value`, the voxel between the region's voxel q and the voxels o1, o2 beyond it, is a
// mixture of q's tissue and the tissue outside holding more of q's.
bool isRim(const std::vector<float>& v, const IntensityModel& model, double value, std::size_t q,
           std::size_t o1, std::size_t o2) {
  const double a = tissueOf(model, v[q]);
  // Of the two voxels beyond, the one farther from the tissue: the nearer is often itself
  // partly the tissue (the blur reaches a voxel or so).
  const double b = std::abs(v[o2] - a) > std::abs(v[o1] - a) ? double(v[o2]) : double(v[o1]);
  return (value - a) * (value - b) < 0 && std::abs(value - a) < std::abs(value - b);
}

}  // namespace

void addPartialVolumeRim(std::vector<std::uint8_t>& region, const RoiImage& roi,
                         const IntensityModel& model) {
  if (model.bands().empty()) {
    return;
  }
  const core::Size3 n = roi.grid.extent();
  const std::vector<float>& v = roi.smooth;
  const std::size_t stride[3] = {1, n[0], n[0] * n[1]};
  // Decided on the region as it was, so that the rim is one layer deep: a voxel half of a
  // rim voxel is a quarter of the tissue. Walked from the region's voxels, which are far fewer
  // than the region of interest's.
  std::vector<std::size_t> added;
  std::size_t q = 0;
  for (std::size_t z = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      for (std::size_t x = 0; x < n[0]; ++x, ++q) {
        if (!region[q]) {
          continue;
        }
        const std::size_t pos[3] = {x, y, z};
        for (int axis = 0; axis < 3; ++axis) {
          const std::size_t s = stride[axis];
          // The voxel p beside q, and o1, o2 beyond it, on either side.
          if (pos[axis] + 3 < n[axis] && !region[q + s] && !region[q + 2 * s] &&
              !model.candidate(v[q + s]) && isRim(v, model, v[q + s], q, q + 2 * s, q + 3 * s)) {
            added.push_back(q + s);
          }
          if (pos[axis] >= 3 && !region[q - s] && !region[q - 2 * s] &&
              !model.candidate(v[q - s]) && isRim(v, model, v[q - s], q, q - 2 * s, q - 3 * s)) {
            added.push_back(q - s);
          }
        }
      }
    }
  }
  for (std::size_t a : added) {
    region[a] = 1;
  }
}

}  // namespace delineate::annotation
