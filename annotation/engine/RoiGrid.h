#pragma once
// The region of interest a segmenter works in: a box of the volume with its own x-fastest voxel
// numbering, so that per-voxel work arrays cover the box only.
#include <algorithm>
#include <cstddef>

#include "core/model/ImageGeometry.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

struct RoiGrid {
  core::VoxelBox box;  // in volume indices
  core::Vec3 spacing{1, 1, 1};

  core::Size3 extent() const {
    return {box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]};
  }
  std::size_t count() const { return box.count(); }
  bool contains(const core::Size3& v) const {
    return v[0] >= box.lo[0] && v[0] < box.hi[0] && v[1] >= box.lo[1] && v[1] < box.hi[1] &&
           v[2] >= box.lo[2] && v[2] < box.hi[2];
  }
  // Work-array index of volume voxel v (must lie in the box).
  std::size_t index(const core::Size3& v) const {
    const core::Size3 n = extent();
    return (v[0] - box.lo[0]) + n[0] * ((v[1] - box.lo[1]) + n[1] * (v[2] - box.lo[2]));
  }
  // Calls f(index) for the work-array index of every voxel of the box within `radiusMm` of
  // volume voxel `centre` (which must lie in the box).
  template <class F>
  void forEachInBall(const core::Size3& centre, double radiusMm, F&& f) const {
    std::size_t lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      const std::size_t reach = std::size_t(radiusMm / spacing[a]);
      lo[a] = std::max(centre[a], box.lo[a] + reach) - reach;
      hi[a] = std::min(centre[a] + reach + 1, box.hi[a]);
    }
    for (std::size_t k = lo[2]; k < hi[2]; ++k) {
      const double dz = (double(k) - double(centre[2])) * spacing[2];
      for (std::size_t j = lo[1]; j < hi[1]; ++j) {
        const double dy = (double(j) - double(centre[1])) * spacing[1];
        for (std::size_t i = lo[0]; i < hi[0]; ++i) {
          const double dx = (double(i) - double(centre[0])) * spacing[0];
          if (dx * dx + dy * dy + dz * dz <= radiusMm * radiusMm) {
            f(index({i, j, k}));
          }
        }
      }
    }
  }
  // Volume voxel of work-array index `at`.
  core::Size3 voxel(std::size_t at) const {
    const core::Size3 n = extent();
    return {box.lo[0] + at % n[0], box.lo[1] + (at / n[0]) % n[1], box.lo[2] + at / (n[0] * n[1])};
  }
};

}  // namespace delineate::annotation
