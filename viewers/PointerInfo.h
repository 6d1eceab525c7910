#pragma once
// What lies under the mouse in a view, for the status bar.
#include <array>

#include "core/model/ImageGeometry.h"

namespace delineate::viewers {

struct PointerInfo {
  bool inside = false;  // over a voxel of the volume; value and voxel are valid only then
  double value = 0;
  core::Vec3 world{0, 0, 0};  // LPS, mm
  std::array<long long, 3> voxel{0, 0, 0};
};

}  // namespace delineate::viewers
