#pragma once
// A ruler or an ellipse drawn on a mammogram, kept in image pixels (so that it stays on the
// anatomy through zoom, pan and mirroring) and measured in millimetres with the image's pixel
// spacing; the ellipse also gives the mean and standard deviation of the stored values inside.
#include <array>
#include <string>

#include "core/mammo/ImagePyramid.h"

namespace delineate::core::mammo {

struct ReadingMeasurement {
  enum class Kind { Ruler, Ellipse } kind = Kind::Ruler;
  std::array<double, 2> a{};  // ruler: the ends; ellipse: opposite corners of its bounding box
  std::array<double, 2> b{};
};

struct MeasurementValues {
  double lengthMm = 0;  // ruler
  double areaMm2 = 0;   // ellipse
  double widthMm = 0;   // ellipse axes
  double heightMm = 0;
  double mean = 0;  // stored values inside the ellipse
  double sd = 0;
  std::size_t pixels = 0;
};

MeasurementValues measure(const ReadingMeasurement& m, const ImagePyramid& image, double spacing);
// "23.4 mm" or "area 123.4 mm² (12.0 × 13.1 mm), mean 1834 ± 120"
std::string describe(const ReadingMeasurement& m, const MeasurementValues& v);

}  // namespace delineate::core::mammo
