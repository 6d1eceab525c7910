#pragma once
// A small CT-like test volume made in code, defined in LPS world coordinates so that any voxel
// ordering (direction matrix) shows the same anatomy:
//   body      elliptic cylinder along z, semi-axes 80 mm (x, left-right) and 60 mm (y), 40 HU,
//             in -1000 HU air;
//   bead      1000 HU sphere, radius 7 mm, at (+50, 0, 0): on the patient's LEFT, in the
//             central axial and coronal slices;
//   marker    600 HU sphere, radius 6 mm, at (0, -40, +15): anterior and superior, in the
//             central sagittal slice only;
//   dark      -600 HU box x in [-40, -10], y in [-20, 20], z >= +36: on the patient's right, in
//             the upper slices only.
#include "core/model/Volume.h"

namespace delineate::test {

struct SyntheticCt {
  static constexpr double kBodyA = 80;  // mm, along x
  static constexpr double kBodyB = 60;  // mm, along y
  static constexpr core::Vec3 kBead{50, 0, 0};
  static constexpr double kBeadRadius = 7;
  static constexpr core::Vec3 kMarker{0, -40, 15};
  static constexpr double kMarkerRadius = 6;
  static constexpr double kDarkXMin = -40, kDarkXMax = -10, kDarkYMax = 20, kDarkZMin = 36;

  static double valueAt(const core::Vec3& p);

  // 128 x 112 x 40 voxels of 1.5 x 1.5 x 3 mm centred on the world origin, Int16.
  // flipped: the same anatomy stored with direction diag(-1, -1, 1) (RAS voxel order, as many
  // NIfTI files are).
  static core::VolumePtr make(bool flipped = false);
};

}  // namespace delineate::test
