#pragma once
// An axis-aligned box of voxel indices, [lo, hi) per axis.
#include <algorithm>
#include <cstddef>

#include "core/model/ImageGeometry.h"

namespace delineate::core {

struct VoxelBox {
  Size3 lo{0, 0, 0};
  Size3 hi{0, 0, 0};

  static VoxelBox whole(const Size3& size) { return {{0, 0, 0}, size}; }
  bool empty() const { return hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]; }
  std::size_t count() const {
    return empty() ? 0 : (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  }
  void include(std::size_t i, std::size_t j, std::size_t k) {
    if (empty()) {
      lo = {i, j, k};
      hi = {i + 1, j + 1, k + 1};
      return;
    }
    const std::size_t p[3] = {i, j, k};
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], p[a]);
      hi[a] = std::max(hi[a], p[a] + 1);
    }
  }
  void include(const VoxelBox& other) {
    if (other.empty()) {
      return;
    }
    include(other.lo[0], other.lo[1], other.lo[2]);
    include(other.hi[0] - 1, other.hi[1] - 1, other.hi[2] - 1);
  }
  bool operator==(const VoxelBox&) const = default;
};

}  // namespace delineate::core
