#include "core/mammo/PyramidRenderer.h"

#include <algorithm>
#include <cmath>

namespace delineate::core::mammo {

namespace {

// For each screen column the source column of `level` (or -1 outside the image).
std::vector<long> sourceColumns(const ViewTransform& view, int width, const PyramidLevel& level) {
  std::vector<long> cols(static_cast<std::size_t>(std::max(width, 0)));
  const double sign = view.mirror ? -1.0 : 1.0;
  const double f = static_cast<double>(level.factor);
  for (int x = 0; x < width; ++x) {
    const double column = view.centerColumn + sign * ((x + 0.5) - width / 2.0) / view.scale;
    const double c = std::floor(column / f);
    cols[static_cast<std::size_t>(x)] =
        c >= 0 && c < static_cast<double>(level.columns) ? static_cast<long>(c) : -1;
  }
  return cols;
}

long sourceRow(const ViewTransform& view, int y, int height, const PyramidLevel& level) {
  const double row = view.centerRow + ((y + 0.5) - height / 2.0) / view.scale;
  const double r = std::floor(row / static_cast<double>(level.factor));
  return r >= 0 && r < static_cast<double>(level.rows) ? static_cast<long>(r) : -1;
}

template <class Pixel, class Map>
void sample(const Pixel* pixels, std::size_t columns, const PyramidLevel& level,
            const ViewTransform& view, const GreyTarget& target, std::uint8_t background, Map map) {
  const std::vector<long> cols = sourceColumns(view, target.width, level);
  for (int y = 0; y < target.height; ++y) {
    std::uint8_t* out = target.pixels + y * target.stride;
    const long r = sourceRow(view, y, target.height, level);
    if (r < 0) {
      std::fill(out, out + target.width, background);
      continue;
    }
    const Pixel* row = pixels + static_cast<std::size_t>(r) * columns;
    for (int x = 0; x < target.width; ++x) {
      const long c = cols[static_cast<std::size_t>(x)];
      out[x] = c < 0 ? background : map(row[c]);
    }
  }
}

}  // namespace

std::array<double, 2> ViewTransform::toScreen(double column, double row, int width,
                                              int height) const {
  const double sign = mirror ? -1.0 : 1.0;
  return {width / 2.0 + sign * (column - centerColumn) * scale,
          height / 2.0 + (row - centerRow) * scale};
}

std::array<double, 2> ViewTransform::toImage(double x, double y, int width, int height) const {
  const double sign = mirror ? -1.0 : 1.0;
  return {centerColumn + sign * (x - width / 2.0) / scale, centerRow + (y - height / 2.0) / scale};
}

void renderPyramid(const ImagePyramid& pyramid, const std::uint8_t* table,
                   const ViewTransform& view, const GreyTarget& target, std::uint8_t background) {
  const PyramidLevel& level = pyramid.levelFor(view.scale);
  sample(level.pixels, level.columns, level, view, target, background,
         [table](std::uint16_t v) { return table[v]; });
}

void renderFullFrame(const ImagePyramid& pyramid, const std::uint8_t* table,
                     const ViewTransform& view, const GreyTarget& target,
                     std::vector<std::uint8_t>& scratch, std::uint8_t background) {
  const PyramidLevel& full = pyramid.level(0);
  const std::size_t count = full.columns * full.rows;
  scratch.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    scratch[i] = table[full.pixels[i]];
  }
  sample(scratch.data(), full.columns, full, view, target, background,
         [](std::uint8_t v) { return v; });
}

}  // namespace delineate::core::mammo
