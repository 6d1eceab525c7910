#pragma once
// Qt- and VTK-free volume rendering presets: transfer function points for CT bone, CT soft
// tissue and MR, the last scaled to the volume's own intensities.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/Volume.h"

namespace delineate::viewers {

enum class VolumePreset { CtBone, CtSoftTissue, Mr };

const char* toString(VolumePreset preset);  // "CT bone", ...
const char* presetId(VolumePreset preset);  // "ctBone", "ctSoftTissue", "mr"
std::optional<VolumePreset> presetFromId(const std::string& id);
std::vector<VolumePreset> allVolumePresets();

struct TransferPoint {
  double value;
  double red, green, blue;  // 0..1
  double opacity;           // per unit distance (scaled by the opacity unit distance)
};

struct VolumeStyle {
  std::vector<TransferPoint> points;  // sorted by value
  // Opacity factor by gradient magnitude (value units per mm), as (magnitude, factor) pairs;
  // empty: none. Hides uniform interiors so that surfaces show with shading.
  std::vector<std::pair<double, double>> gradientOpacity;
  bool shade = true;
  double ambient = 0.2, diffuse = 0.8, specular = 0.2, specularPower = 10;
};

VolumeStyle volumeStyle(VolumePreset preset, const core::Volume& volume);
// CT bone for CT-like volumes, MR otherwise.
VolumePreset defaultVolumePreset(const core::Volume& volume);

}  // namespace delineate::viewers
