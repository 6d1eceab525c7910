#pragma once
// The 65536-entry grey table a viewport draws a pyramid through: the image's DisplayLut (window
// or VOI LUT, VOI LUT Function, MONOCHROME1, invert) evaluated at each of the pyramid's display
// indices. Rebuilt on every window/level change (well under a millisecond), never per pixel.
#include <cstdint>
#include <vector>

#include "core/mammo/DisplayLut.h"
#include "core/mammo/ImagePyramid.h"

namespace delineate::core::mammo {

std::vector<std::uint8_t> pyramidDisplayTable(const ImagePyramid& pyramid,
                                              const DisplaySettings& settings);

}  // namespace delineate::core::mammo
