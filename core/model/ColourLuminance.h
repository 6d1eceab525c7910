#pragma once
// The luminance of a colour voxel, which is a colour image's voxel value (what tools, statistics
// and the AI work on): round(0.299 R + 0.587 G + 0.114 B), ITU-R BT.601 as DICOM's YBR_FULL.
#include <cmath>
#include <memory>

#include "core/model/VoxelBuffer.h"

namespace delineate::core {

inline double colourLuminance(double r, double g, double b) {
  return std::floor(0.299 * r + 0.587 * g + 0.114 * b + 0.5);
}

// The luminance of every voxel of `rgb` (R, G, B interleaved, an unsigned type), in that type.
std::shared_ptr<VoxelBuffer> colourLuminanceOf(const VoxelBuffer& rgb);

}  // namespace delineate::core
