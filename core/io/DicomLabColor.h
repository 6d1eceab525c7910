#pragma once
// Colours as DICOM stores them (Recommended Display CIELab Value: L*, a*, b* scaled to 0..65535,
// PS3.3 C.10.7.1.1) and as the segment table holds them (8-bit sRGB). The conversion follows the
// one dcmqi and 3D Slicer use (sRGB, D65 white point), so that colours survive a round trip
// through their tools as well as ours.
#include <array>
#include <cstdint>

namespace delineate::core {

using Rgb8 = std::array<std::uint8_t, 3>;
using DicomLab = std::array<std::uint16_t, 3>;

// sRGB (0..255) -> CIELab, L* in [0, 100], a* and b* in about [-128, 127].
std::array<double, 3> srgbToLab(const Rgb8& rgb);
// CIELab -> sRGB, rounded and clamped to 0..255.
Rgb8 labToSrgb(const std::array<double, 3>& lab);

// CIELab <-> DICOM's scaled form: L * 65535 / 100, (a + 128) * 65535 / 255.
DicomLab labToDicom(const std::array<double, 3>& lab);
std::array<double, 3> dicomToLab(const DicomLab& scaled);

inline DicomLab srgbToDicomLab(const Rgb8& rgb) {
  return labToDicom(srgbToLab(rgb));
}
inline Rgb8 dicomLabToSrgb(const DicomLab& scaled) {
  return labToSrgb(dicomToLab(scaled));
}

}  // namespace delineate::core
