#pragma once
// The grid of a 3D image in patient space: LPS world coordinates in mm, as DICOM and ITK use.
#include <array>
#include <cstddef>
#include <string>

namespace delineate::core {

using Vec3 = std::array<double, 3>;
using Size3 = std::array<std::size_t, 3>;
// Row-major 3x3. Column j is the unit direction of index axis j in LPS (ITK's convention).
using Mat3 = std::array<double, 9>;

struct ImageGeometry {
  Size3 size{0, 0, 0};
  Vec3 spacing{1, 1, 1};
  Vec3 origin{0, 0, 0};  // world position of the centre of voxel (0,0,0)
  Mat3 direction{1, 0, 0, 0, 1, 0, 0, 0, 1};

  // Number of voxels; throws Error(TooLarge) when the product overflows size_t.
  std::size_t voxelCount() const;
  Vec3 axis(int index) const {
    return {direction[index], direction[3 + index], direction[6 + index]};
  }
  Vec3 indexToWorld(const Vec3& ijk) const;
  // Continuous index of a world point (inverse of indexToWorld).
  Vec3 worldToIndex(const Vec3& world) const;
  // World coordinates of the bounding box corners' extremes (voxel centres).
  std::array<Vec3, 2> worldBounds() const;
  // The patient direction letters each index axis points toward, e.g. "LPS" for an axial stack
  // with identity direction, "LIP"... Letters: L/R (x), P/A (y), S/I (z), dominant component.
  std::string orientationCode() const;
  bool sameGrid(const ImageGeometry& other, double tolerance = 1e-4) const;
  // Empty when sameGrid(); otherwise names the first difference, e.g. "size 10x10x5 vs 10x10x6".
  std::string differenceFrom(const ImageGeometry& other, double tolerance = 1e-4) const;
};

// Letter of the patient direction a unit vector points toward most: +x L, -x R, +y P, -y A,
// +z S, -z I.
char patientDirectionLetter(const Vec3& direction);

Vec3 cross(const Vec3& a, const Vec3& b);
double dot(const Vec3& a, const Vec3& b);
Vec3 normalized(const Vec3& v);

}  // namespace delineate::core
