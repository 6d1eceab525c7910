#include "core/io/DicomLabColor.h"

#include <algorithm>
#include <cmath>

namespace delineate::core {

namespace {

// sRGB primaries with the D65 white point: linear RGB -> XYZ and back (Y of white = 1).
constexpr double kRgbToXyz[9] = {0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522,
                                 0.0721750, 0.0193339, 0.1191920, 0.9503041};
constexpr double kXyzToRgb[9] = {3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108,
                                 0.0415560, 0.0556434,  -0.2040259, 1.0572252};
constexpr double kWhite[3] = {0.95047, 1.0, 1.08883};
constexpr double kDelta = 6.0 / 29.0;

double toLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double toGamma(double c) {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

double labF(double t) {
  return t > kDelta * kDelta * kDelta ? std::cbrt(t) : t / (3 * kDelta * kDelta) + 4.0 / 29.0;
}

double labFInverse(double t) {
  return t > kDelta ? t * t * t : 3 * kDelta * kDelta * (t - 4.0 / 29.0);
}

}  // namespace

std::array<double, 3> srgbToLab(const Rgb8& rgb) {
  double lin[3];
  for (int c = 0; c < 3; ++c) {
    lin[c] = toLinear(rgb[c] / 255.0);
  }
  double f[3];
  for (int r = 0; r < 3; ++r) {
    const double xyz =
        kRgbToXyz[3 * r] * lin[0] + kRgbToXyz[3 * r + 1] * lin[1] + kRgbToXyz[3 * r + 2] * lin[2];
    f[r] = labF(xyz / kWhite[r]);
  }
  return {116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
}

Rgb8 labToSrgb(const std::array<double, 3>& lab) {
  const double fy = (lab[0] + 16) / 116;
  const double f[3] = {fy + lab[1] / 500, fy, fy - lab[2] / 200};
  double xyz[3];
  for (int c = 0; c < 3; ++c) {
    xyz[c] = kWhite[c] * labFInverse(f[c]);
  }
  Rgb8 out{};
  for (int r = 0; r < 3; ++r) {
    const double lin =
        kXyzToRgb[3 * r] * xyz[0] + kXyzToRgb[3 * r + 1] * xyz[1] + kXyzToRgb[3 * r + 2] * xyz[2];
    const double v = toGamma(std::clamp(lin, 0.0, 1.0)) * 255.0;
    out[r] = static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
  }
  return out;
}

DicomLab labToDicom(const std::array<double, 3>& lab) {
  const auto scale = [](double v, double lo, double range) {
    return static_cast<std::uint16_t>(
        std::clamp(std::lround((v - lo) * 65535.0 / range), 0L, 65535L));
  };
  return {scale(lab[0], 0, 100), scale(lab[1], -128, 255), scale(lab[2], -128, 255)};
}

std::array<double, 3> dicomToLab(const DicomLab& s) {
  return {s[0] * 100.0 / 65535.0, s[1] * 255.0 / 65535.0 - 128, s[2] * 255.0 / 65535.0 - 128};
}

}  // namespace delineate::core
