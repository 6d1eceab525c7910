#pragma once
// Draws one viewport of a 2-D image from its pyramid: the level that matches the zoom, only the
// pixels the viewport shows, each through the 65536-entry display table (DisplayLut over the
// pyramid's display indices). Nearest sampling of that level; the levels themselves are 2 x 2
// means, so a zoomed-out image is filtered, not aliased. Pure pixel code: the reading view wraps
// the target in a QImage, the benchmark and the tests use it directly.
//
// renderFullFrame() is the plain path the benchmark compares with: the whole full-resolution
// frame through the table, then the viewport sampled from it (a viewer without a pyramid).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/mammo/ImagePyramid.h"

namespace delineate::core::mammo {

// Where a viewport looks. Image coordinates are level-0 pixels, continuous: pixel (i, j) covers
// [i, i + 1) x [j, j + 1). Screen pixel (x, y) samples at its centre (x + 0.5, y + 0.5).
struct ViewTransform {
  double scale = 1;         // screen pixels per image pixel
  double centerColumn = 0;  // the image point at the viewport's centre
  double centerRow = 0;
  bool mirror = false;  // image columns run from right to left on screen

  std::array<double, 2> toScreen(double column, double row, int width, int height) const;
  std::array<double, 2> toImage(double x, double y, int width, int height) const;
};

struct GreyTarget {
  std::uint8_t* pixels = nullptr;
  int width = 0;
  int height = 0;
  std::ptrdiff_t stride = 0;  // bytes per row
};

void renderPyramid(const ImagePyramid& pyramid, const std::uint8_t* table,
                   const ViewTransform& view, const GreyTarget& target,
                   std::uint8_t background = 0);

// `scratch` keeps the mapped full frame between calls (it is remapped every call, as a viewer
// without a pyramid must on every window/level change).
void renderFullFrame(const ImagePyramid& pyramid, const std::uint8_t* table,
                     const ViewTransform& view, const GreyTarget& target,
                     std::vector<std::uint8_t>& scratch, std::uint8_t background = 0);

}  // namespace delineate::core::mammo
