#include "SyntheticCt.h"

#include <cmath>

namespace delineate::test {

double SyntheticCt::valueAt(const core::Vec3& p) {
  auto dist2 = [](const core::Vec3& a, const core::Vec3& b) {
    return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
           (a[2] - b[2]) * (a[2] - b[2]);
  };
  if (dist2(p, kBead) <= kBeadRadius * kBeadRadius) {
    return 1000;
  }
  if (dist2(p, kMarker) <= kMarkerRadius * kMarkerRadius) {
    return 600;
  }
  const double e = (p[0] / kBodyA) * (p[0] / kBodyA) + (p[1] / kBodyB) * (p[1] / kBodyB);
  if (e > 1) {
    return -1000;
  }
  if (p[0] >= kDarkXMin && p[0] <= kDarkXMax && std::abs(p[1]) <= kDarkYMax && p[2] >= kDarkZMin) {
    return -600;
  }
  return 40;
}

core::VolumePtr SyntheticCt::make(bool flipped) {
  core::ImageGeometry g;
  g.size = {128, 112, 40};
  g.spacing = {1.5, 1.5, 3.0};
  const double sx = flipped ? -1 : 1;
  const double sy = flipped ? -1 : 1;
  g.direction = {sx, 0, 0, 0, sy, 0, 0, 0, 1};
  // Voxel centres symmetric about the origin in every axis.
  for (int a = 0; a < 3; ++a) {
    const double half = (static_cast<double>(g.size[a]) - 1) / 2 * g.spacing[a];
    const double sign = a == 0 ? sx : a == 1 ? sy : 1;
    g.origin[a] = -sign * half;
  }
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  auto* v = voxels->as<std::int16_t>();
  std::size_t n = 0;
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const core::Vec3 p = g.indexToWorld(
            {static_cast<double>(i), static_cast<double>(j), static_cast<double>(k)});
        v[n++] = static_cast<std::int16_t>(valueAt(p));
      }
    }
  }
  core::VolumeInfo info;
  info.modality = "CT";
  info.patientName = "Test^Phantom";
  info.seriesDescription = flipped ? "synthetic CT (RAS order)" : "synthetic CT";
  return std::make_shared<const core::Volume>(g, voxels, info);
}

}  // namespace delineate::test
