#pragma once
// Puts the frames of a DICOM series in order and derives the volume's grid: sorting along the
// slice normal, duplicate positions, gaps, uneven spacing and gantry tilt. Pure logic, no I/O.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/model/ImageGeometry.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

struct DicomSlicePlacement {
  std::optional<Vec3> position;                       // ImagePositionPatient
  std::optional<std::array<double, 6>> orientation;   // ImageOrientationPatient (unit cosines)
  std::optional<std::array<double, 2>> pixelSpacing;  // between rows, between columns
  double sliceThickness = 0;
  std::optional<int> instanceNumber;
  std::string file;       // for messages and as a tie-break
  std::size_t frame = 0;  // frame within the file
};

struct DicomStackLayout {
  ImageGeometry geometry;          // size = columns x rows x slices; always orthonormal
  std::vector<std::size_t> order;  // index into the placements for each slice, in slice order
  std::vector<std::string> warnings;
  // Gantry tilt: slice k of the files lies k * shearPerSlice (mm, in the slice plane) away from
  // where `geometry` puts it; unshearDicomSlices() moves the pixels there. Zero when untilted.
  Vec3 shearPerSlice{0, 0, 0};
  // False when no file gave an ImageOrientationPatient (ultrasound, scanned film): the grid is
  // then laid out as axial, but which way the patient lies is not known.
  bool orientationKnown = true;
};

// True when two ImageOrientationPatient values describe the same plane orientation.
bool sameOrientation(const std::array<double, 6>& a, const std::array<double, 6>& b);
// "axial", "coronal", "sagittal" or "oblique" for the plane of an ImageOrientationPatient.
std::string planeName(const std::array<double, 6>& orientation);

// Moves the pixels of each slice of `voxels` (slices of geometry.size[0] x size[1]) by
// -k * shearPerSlice in-plane with bilinear interpolation, so that they sit where `geometry`
// says; pixels coming from outside the slice get the smallest value of the volume.
void unshearDicomSlices(VoxelBuffer& voxels, const ImageGeometry& geometry,
                        const Vec3& shearPerSlice);

// Orders the frames and builds the grid. `fallbackSpacing` (SpacingBetweenSlices, or 0) is used
// when positions are missing; `gantryTilt` (degrees, from the header) only enriches warnings.
// Throws Error(InvalidInput) naming a file when the frames cannot form one volume: orientations
// differ, or the positions are so irregular that any regular grid would misplace most slices.
DicomStackLayout layoutDicomSlices(const std::vector<DicomSlicePlacement>& frames, std::size_t rows,
                                   std::size_t columns, double fallbackSpacing, double gantryTilt);

}  // namespace delineate::core
