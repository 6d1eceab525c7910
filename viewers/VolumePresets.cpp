#include "viewers/VolumePresets.h"

#include "viewers/WindowLevel.h"

namespace delineate::viewers {

const char* toString(VolumePreset preset) {
  switch (preset) {
    case VolumePreset::CtBone:
      return "CT bone";
    case VolumePreset::CtSoftTissue:
      return "CT soft tissue";
    case VolumePreset::Mr:
      break;
  }
  return "MR";
}

const char* presetId(VolumePreset preset) {
  switch (preset) {
    case VolumePreset::CtBone:
      return "ctBone";
    case VolumePreset::CtSoftTissue:
      return "ctSoftTissue";
    case VolumePreset::Mr:
      break;
  }
  return "mr";
}

std::optional<VolumePreset> presetFromId(const std::string& id) {
  for (VolumePreset p : allVolumePresets()) {
    if (id == presetId(p)) {
      return p;
    }
  }
  return std::nullopt;
}

std::vector<VolumePreset> allVolumePresets() {
  return {VolumePreset::CtBone, VolumePreset::CtSoftTissue, VolumePreset::Mr};
}

VolumeStyle volumeStyle(VolumePreset preset, const core::Volume& volume) {
  VolumeStyle s;
  switch (preset) {
    case VolumePreset::CtBone:
      // Soft tissue fully transparent, cancellous to cortical bone from translucent to opaque
      // ivory (3D Slicer's "CT-Bone" idea without its soft-tissue haze).
      s.points = {{-3024, 0, 0, 0, 0},
                  {150, 0.75, 0.45, 0.35, 0},
                  {300, 0.92, 0.78, 0.62, 0.25},
                  {700, 1, 0.96, 0.86, 0.85},
                  {3071, 1, 1, 1, 0.9}};
      s.ambient = 0.35;
      s.diffuse = 0.9;
      s.specular = 0.3;
      break;
    case VolumePreset::CtSoftTissue:
      // Skin, fat (yellow) and muscle/organs (red) as surfaces: the gradient term hides the
      // uniform insides so boundaries show; bone bright.
      s.points = {{-3024, 0, 0, 0, 0},
                  {-700, 0, 0, 0, 0},
                  {-400, 0.80, 0.55, 0.40, 0.15},
                  {-100, 0.90, 0.75, 0.45, 0.3},
                  {40, 0.85, 0.40, 0.35, 0.45},
                  {300, 1, 0.90, 0.80, 0.6},
                  {3071, 1, 1, 1, 0.85}};
      s.gradientOpacity = {{0, 0}, {10, 0.1}, {100, 1}};
      s.ambient = 0.3;
      s.diffuse = 0.8;
      s.specular = 0.15;
      break;
    case VolumePreset::Mr: {
      // Background transparent; the brightest tissue most opaque, from the volume's histogram.
      const auto [lo, hi] = percentileRange(volume, 40, 99.8);
      const double span = std::max(hi - lo, 1e-6);
      s.points = {{lo, 0, 0, 0, 0},
                  {lo + 0.25 * span, 0.55, 0.45, 0.40, 0.05},
                  {lo + 0.6 * span, 0.85, 0.78, 0.70, 0.35},
                  {hi, 1, 1, 1, 0.7}};
      s.gradientOpacity = {{0, 0.15}, {0.15 * span, 1}};
      s.ambient = 0.25;
      s.diffuse = 0.75;
      s.specular = 0.1;
      break;
    }
  }
  return s;
}

VolumePreset defaultVolumePreset(const core::Volume& volume) {
  return looksLikeCt(volume) ? VolumePreset::CtBone : VolumePreset::Mr;
}

}  // namespace delineate::viewers
