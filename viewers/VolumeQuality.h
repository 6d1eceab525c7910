#pragma once
// How finely the 3D view ray-casts (Edit > Preferences > 3D rendering): the trade between the
// time of a frame and its detail. Balanced samples each ray at half the finest voxel spacing and
// every screen pixel; while the mouse drags, a coarser level keeps the view moving.
#include <QString>

namespace delineate::viewers {

enum class VolumeQuality { Fast, Balanced, Best };

struct VolumeSampling {
  double sampleFactor;       // ray step = factor x (finest spacing / 2)
  double imageSample;        // rays every N screen pixels (1 = every pixel)
  double interactiveFactor;  // the same two while the mouse drags
  double interactiveImage;
};

inline VolumeSampling samplingFor(VolumeQuality q) {
  switch (q) {
    case VolumeQuality::Fast:
      return {2.0, 2.0, 6.0, 4.0};
    case VolumeQuality::Best:
      return {0.5, 1.0, 2.0, 2.0};
    case VolumeQuality::Balanced:
      break;
  }
  return {1.0, 1.0, 4.0, 3.0};
}

inline QString toString(VolumeQuality q) {
  switch (q) {
    case VolumeQuality::Fast:
      return QStringLiteral("fast");
    case VolumeQuality::Best:
      return QStringLiteral("best");
    case VolumeQuality::Balanced:
      break;
  }
  return QStringLiteral("balanced");
}

inline VolumeQuality volumeQualityFromString(const QString& s) {
  if (s == QLatin1String("fast")) {
    return VolumeQuality::Fast;
  }
  if (s == QLatin1String("best")) {
    return VolumeQuality::Best;
  }
  return VolumeQuality::Balanced;
}

}  // namespace delineate::viewers
