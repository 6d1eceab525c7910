#pragma once
// Small building blocks shared by the synthetic studies.
#include <cstdint>
#include <vector>

#include "core/model/Volume.h"

namespace delineate::core::sample {

struct Ellipsoid {
  Vec3 centre;
  Vec3 radii;
  // < 1 inside, 1 on the surface.
  double normalizedRadius(const Vec3& p) const;
  // Approximate signed distance in mm (negative inside).
  double signedDistance(const Vec3& p) const;
};

// A grid of `size` voxels centred on the world origin, identity (axial LPS) direction.
ImageGeometry centredGeometry(const Size3& size, const Vec3& spacing);

// World coordinates of voxel (i, j, k) for an identity-direction grid, without a matrix product.
inline Vec3 voxelCentre(const ImageGeometry& g, std::size_t i, std::size_t j, std::size_t k) {
  return {g.origin[0] + g.spacing[0] * static_cast<double>(i),
          g.origin[1] + g.spacing[1] * static_cast<double>(j),
          g.origin[2] + g.spacing[2] * static_cast<double>(k)};
}

// In-place [1 2 1]/4 blur along each axis: partial-volume edges like a real scanner's.
void blur121(std::vector<float>& image, const Size3& size);

// Rounds and clamps to int16.
VolumePtr int16Volume(const ImageGeometry& g, const std::vector<float>& values, VolumeInfo info);
VolumePtr uint16Volume(const ImageGeometry& g, const std::vector<float>& values, VolumeInfo info);
// Adopts the vector's memory (no copy).
VolumePtr labelVolume(const ImageGeometry& g, std::vector<std::uint16_t> labels, VolumeInfo info);

}  // namespace delineate::core::sample
