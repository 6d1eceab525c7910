#include "core/mammo/DemoPectoralMuscle.h"

#include <algorithm>
#include <cmath>

namespace delineate::core::mammo {

Mask pectoralMuscle(const FloatImage& coarse, const Mask& breast, bool chestWallLeft,
                    double coarseMm) {
  const std::size_t nc = coarse.columns, nr = coarse.rows;
  Mask muscle(nc * nr, 0);
  if (nc == 0 || nr == 0) {
    return muscle;
  }
  const auto column = [&](std::size_t u) { return chestWallLeft ? u : nc - 1 - u; };
  const auto inside = [&](std::size_t u, std::size_t r) { return breast[r * nc + column(u)] != 0; };
  std::size_t top = 0;
  while (top < nr && !inside(0, top)) {
    ++top;
  }
  if (top == nr) {
    return muscle;
  }
  const MaskedIntegral integral(coarse, breast);
  const long half = std::max(1L, std::lround(1.5 / coarseMm));
  const auto smooth = [&](std::size_t u, std::size_t r) {
    double fraction = 0;
    return integral.mean(long(column(u)), long(r), half, &fraction);
  };
  // The corner: the first 5 mm from the chest wall over the first 15 mm of rows.
  const auto cornerColumns = std::max<std::size_t>(1, std::size_t(5 / coarseMm));
  const auto cornerRows = std::max<std::size_t>(1, std::size_t(15 / coarseMm));
  double sum = 0, count = 0;
  for (std::size_t r = top; r < std::min(nr, top + cornerRows); ++r) {
    for (std::size_t u = 0; u < std::min(nc, cornerColumns); ++u) {
      if (inside(u, r)) {
        sum += smooth(u, r);
        count += 1;
      }
    }
  }
  const double corner = sum / count;
  const double median = percentile(coarse, breast, 0.5);
  const double spread = double(percentile(coarse, breast, 0.95) - percentile(coarse, breast, 0.05));
  if (!(corner - median > 0.15 * spread)) {
    return muscle;
  }
  const double threshold = median + 0.5 * (corner - median);
  const auto margin = std::size_t(std::lround(2 / coarseMm));
  std::size_t width = nc, area = 0, breastArea = 0;
  for (const std::uint8_t b : breast) {
    breastArea += b;
  }
  for (std::size_t r = top; r < nr && width > 0; ++r) {
    std::size_t w = 0;
    while (w < width && inside(w, r) && smooth(w, r) >= threshold) {
      ++w;
    }
    width = w;  // no wider than the row above
    for (std::size_t u = 0; u < std::min(nc, w > 0 ? w + margin : 0); ++u) {
      muscle[r * nc + column(u)] = breast[r * nc + column(u)];
      ++area;
    }
  }
  if (3 * area > breastArea) {
    std::fill(muscle.begin(), muscle.end(), 0);
  }
  return muscle;
}

}  // namespace delineate::core::mammo
