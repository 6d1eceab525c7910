#pragma once
// What lies under the mouse in a view, for the status bar.
#include <array>
#include <string>

#include "core/model/ImageGeometry.h"

namespace delineate::viewers {

struct PointerInfo {
  bool inside = false;  // over a voxel of the volume; value and voxel are valid only then
  double value = 0;     // the voxel value (a colour image's luminance)
  bool colour = false;  // a colour image: rgb holds the shown channels
  std::array<double, 3> rgb{0, 0, 0};
  core::Vec3 world{0, 0, 0};  // LPS, mm
  std::array<long long, 3> voxel{0, 0, 0};

  // "value 42", "value NaN" (a masked or undefined voxel of a float image, never a number) or
  // "RGB (200, 30, 10)   luminance 81" for colour images.
  std::string valueText() const;
};

}  // namespace delineate::viewers
