#pragma once
// Qt- and VTK-free geometry of the three patient-aligned slice views.
//
// Display convention (radiological, the defaults of 3D Slicer and ITK-SNAP):
//   axial    seen from the feet:       patient left on screen right, anterior at the top
//   coronal  seen from the front:      patient left on screen right, superior at the top
//   sagittal seen from the patient's left: anterior on screen left, superior at the top
// Slices are resampled in LPS patient space (not along the image's index axes), so oblique
// acquisitions are shown the way a radiologist expects. "Next slice" (wheel up, Up arrow,
// PageUp, slider up) moves toward superior (axial), anterior (coronal) and left (sagittal).
#include <array>
#include <optional>
#include <string>

#include "core/model/ImageGeometry.h"
#include "core/model/VoxelBox.h"

namespace delineate::viewers {

enum class SliceOrientation { Axial, Coronal, Sagittal };

const char* toString(SliceOrientation orientation);

struct SliceAxes {
  core::Vec3 right;   // LPS direction of screen right
  core::Vec3 up;      // LPS direction of screen up
  core::Vec3 normal;  // LPS direction in which the slice index grows
};

SliceAxes sliceAxes(SliceOrientation orientation);

// Patient direction letters shown at the middle of each screen side.
struct ScreenLetters {
  char left, right, top, bottom;
};
ScreenLetters screenLetters(SliceOrientation orientation);

// The index axis of an image most parallel to a world direction and whether it points the same
// way.
struct AlignedAxis {
  int axis = 0;
  bool positive = true;
};
AlignedAxis alignedAxis(const core::ImageGeometry& geometry, const core::Vec3& direction);

// Number of slices a view of this orientation can show through the image.
int sliceCount(const core::ImageGeometry& geometry, SliceOrientation orientation);
// Slice index (0 = first along SliceAxes::normal) of the slice through `world`, clamped.
int sliceIndex(const core::ImageGeometry& geometry, SliceOrientation orientation,
               const core::Vec3& world);
// `world` moved along the view normal so that it lies on slice `index` (clamped).
core::Vec3 moveToSlice(const core::ImageGeometry& geometry, SliceOrientation orientation,
                       const core::Vec3& world, int index);

// Nearest voxel index of a world point, clamped into the image.
std::array<long long, 3> nearestVoxel(const core::ImageGeometry& geometry, const core::Vec3& world);
bool containsVoxel(const core::ImageGeometry& geometry, const core::Vec3& world);
// World position of the nearest voxel centre, clamped into the image.
core::Vec3 snapToVoxel(const core::ImageGeometry& geometry, const core::Vec3& world);

// Bounds of the image (voxel edges, not centres) in a view's screen coordinates:
// u = dot(p, right), v = dot(p, up). Returns {umin, umax, vmin, vmax}.
std::array<double, 4> screenBounds(const core::ImageGeometry& geometry,
                                   SliceOrientation orientation);

// Reslicing matrix (row-major 4x4) from a view's plane coordinates (u, v, w) to the image's
// index space (i*sx, j*sy, k*sz): the point u*right + v*up + (s + w)*normal maps to where that
// world point lies in index space. `s` is the slice position dot(p, normal).
std::array<double, 16> resliceAxes(const core::ImageGeometry& geometry,
                                   SliceOrientation orientation, double s);

// The sampling grid of a view's resliced slice: pixel (x, y) shows the plane point
// (u0 + x * du, v0 + y * dv), for x in [0, nu) and y in [0, nv). One pixel per voxel along the
// view's screen axes, covering screenBounds().
struct SliceGrid {
  double u0 = 0, v0 = 0;
  double du = 1, dv = 1;
  int nu = 1, nv = 1;
  bool operator==(const SliceGrid&) const = default;
};
SliceGrid sliceGrid(const core::ImageGeometry& geometry, SliceOrientation orientation);

// Pixels [x0, x1] x [y0, y1] (inclusive) of a SliceGrid.
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
  bool empty() const { return x1 < x0 || y1 < y0; }
  bool operator==(const PixelRect&) const = default;
};

// The pixels of the slice at position `s` (dot(p, normal)) that may show voxels of `box`,
// grown by `margin` pixels and clipped to the grid; nullopt when the box does not reach the
// slice plane at all (nothing on this slice changed).
std::optional<PixelRect> projectBox(const core::ImageGeometry& geometry,
                                    SliceOrientation orientation, double s, const SliceGrid& grid,
                                    const core::VoxelBox& box, int margin = 1);

// Sampling distance of the image along a world direction (the spacing of the aligned axis).
double spacingAlong(const core::ImageGeometry& geometry, const core::Vec3& direction);

}  // namespace delineate::viewers
