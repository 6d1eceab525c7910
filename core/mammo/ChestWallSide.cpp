#include "core/mammo/ChestWallSide.h"

#include <algorithm>
#include <cmath>

namespace delineate::core::mammo {

namespace {

double meanOfColumns(const PyramidLevel& level, std::size_t first, std::size_t last) {
  double sum = 0;
  for (std::size_t r = 0; r < level.rows; ++r) {
    const std::uint16_t* row = level.pixels + r * level.columns;
    for (std::size_t c = first; c < last; ++c) {
      sum += row[c];
    }
  }
  const double n = static_cast<double>(level.rows * (last - first));
  return n > 0 ? sum / n : 0;
}

}  // namespace

ChestWall storedChestWall(const ImagePyramid& pyramid, bool monochrome1, Laterality laterality) {
  const PyramidLevel& level = pyramid.level(pyramid.levelCount() - 1);
  const ChestWall fallback = laterality == Laterality::Right ? ChestWall::Right : ChestWall::Left;
  const std::size_t band = std::max<std::size_t>(1, level.columns / 10);
  if (level.columns < 2 * band) {
    return fallback;
  }
  double left = meanOfColumns(level, 0, band);
  double right = meanOfColumns(level, level.columns - band, level.columns);
  if (monochrome1) {
    left = -left;
    right = -right;
  }
  // Edges that differ by less than 5% of the image's value spread are alike: no tissue side.
  const auto [lo, hi] =
      std::minmax_element(level.pixels, level.pixels + level.rows * level.columns);
  if (std::abs(left - right) < 0.05 * (static_cast<double>(*hi) - *lo)) {
    return fallback;
  }
  return left > right ? ChestWall::Left : ChestWall::Right;
}

}  // namespace delineate::core::mammo
