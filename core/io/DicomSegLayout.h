#pragma once
// Where the frames of a DICOM SEG lie: each frame's segment, position, orientation and pixel
// spacing (per-frame functional groups over the shared ones), the grid they imply on their own,
// and their placement onto a target grid. Internal to the SEG reader.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/ImageGeometry.h"

class DcmSegmentation;

namespace delineate::core {

struct DicomSegFrame {
  std::uint16_t segment = 0;
  std::optional<Vec3> position;                       // ImagePositionPatient
  std::optional<std::array<double, 6>> orientation;   // row cosines, then column cosines
  std::optional<std::array<double, 2>> pixelSpacing;  // between rows, between columns (mm)
};

struct DicomSegLayout {
  std::size_t rows = 0;
  std::size_t columns = 0;
  double spacingBetweenSlices = 0;  // 0 when absent
  double sliceThickness = 0;        // 0 when absent
  std::vector<DicomSegFrame> frames;
};

// Reads the frame geometry of a loaded SEG. Throws Error naming `where` when a frame has no
// segment number, position, orientation or pixel spacing.
DicomSegLayout readDicomSegLayout(DcmSegmentation& seg, std::size_t rows, std::size_t columns,
                                  const std::string& where);

// The grid the frames imply on their own: in-plane axes from the orientation, slices along the
// normal from the lowest to the highest frame position, SpacingBetweenSlices (else the smallest
// gap between frame positions) apart. Throws Error naming `where` when frames differ in
// orientation or pixel spacing.
ImageGeometry deduceDicomSegGeometry(const DicomSegLayout& layout, const std::string& where);

// The target slice of every frame. Throws Error(InvalidInput) naming `where` and the exact
// difference when the frame size, pixel spacing or orientation differs from the target's, or a
// frame's position does not fall on a target slice.
std::vector<std::size_t> placeDicomSegFrames(const DicomSegLayout& layout,
                                             const ImageGeometry& target, const std::string& where);

}  // namespace delineate::core
