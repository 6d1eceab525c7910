#include "core/mammo/ReadingMeasurement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace delineate::core::mammo {

MeasurementValues measure(const ReadingMeasurement& m, const ImagePyramid& image, double spacing) {
  MeasurementValues v;
  const double dx = m.b[0] - m.a[0], dy = m.b[1] - m.a[1];
  if (m.kind == ReadingMeasurement::Kind::Ruler) {
    v.lengthMm = std::hypot(dx, dy) * spacing;
    return v;
  }
  v.widthMm = std::abs(dx) * spacing;
  v.heightMm = std::abs(dy) * spacing;
  v.areaMm2 = std::numbers::pi * v.widthMm * v.heightMm / 4;
  const double cx = (m.a[0] + m.b[0]) / 2, cy = (m.a[1] + m.b[1]) / 2;
  const double rx = std::abs(dx) / 2, ry = std::abs(dy) / 2;
  if (rx <= 0 || ry <= 0) {
    return v;
  }
  const PyramidLevel& full = image.level(0);
  const long c0 = std::max(0L, static_cast<long>(std::floor(cx - rx)));
  const long c1 =
      std::min(static_cast<long>(full.columns) - 1, static_cast<long>(std::ceil(cx + rx)));
  const long r0 = std::max(0L, static_cast<long>(std::floor(cy - ry)));
  const long r1 = std::min(static_cast<long>(full.rows) - 1, static_cast<long>(std::ceil(cy + ry)));
  double sum = 0, sum2 = 0;
  for (long r = r0; r <= r1; ++r) {
    const double ny = (r + 0.5 - cy) / ry;
    for (long c = c0; c <= c1; ++c) {
      const double nx = (c + 0.5 - cx) / rx;
      if (nx * nx + ny * ny <= 1.0) {
        const double value = image.valueOf(
            full.pixels[static_cast<std::size_t>(r) * full.columns + static_cast<std::size_t>(c)]);
        sum += value;
        sum2 += value * value;
        ++v.pixels;
      }
    }
  }
  if (v.pixels > 0) {
    const double n = static_cast<double>(v.pixels);
    v.mean = sum / n;
    v.sd = std::sqrt(std::max(0.0, sum2 / n - v.mean * v.mean));
  }
  return v;
}

std::string describe(const ReadingMeasurement& m, const MeasurementValues& v) {
  char text[160];
  if (m.kind == ReadingMeasurement::Kind::Ruler) {
    std::snprintf(text, sizeof text, "%.1f mm", v.lengthMm);
  } else {
    std::snprintf(text, sizeof text, "%.1f mm\u00b2 (%.1f \u00d7 %.1f mm), mean %.0f \u00b1 %.0f",
                  v.areaMm2, v.widthMm, v.heightMm, v.mean, v.sd);
  }
  return text;
}

}  // namespace delineate::core::mammo
