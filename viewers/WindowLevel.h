#pragma once
// Qt- and VTK-free window/level logic: presets per modality, a robust default, mouse-drag mapping.
#include <string>
#include <vector>

#include "core/model/Volume.h"

namespace delineate::viewers {

struct WindowLevel {
  double center = 0;
  double width = 1;
  bool operator==(const WindowLevel&) const = default;
};

// True for CT and for research files whose values look like Hounsfield units (air near -1000).
bool looksLikeCt(const core::Volume& volume);

// The windows offered for a volume: the file's own first, then the modality's usual ones
// (CT: brain, soft tissue, lung, bone...), then "Full range" and "Auto" (0.5-99.5 percentile).
std::vector<core::WindowPreset> windowPresets(const core::Volume& volume);

// The window a volume opens with: the file's first window, else CT soft tissue for CT-like data,
// else the robust "Auto" window.
WindowLevel defaultWindow(const core::Volume& volume);

// The value range between the given percentiles (0..100), from a subsample of the voxels.
std::pair<double, double> percentileRange(const core::Volume& volume, double low, double high);

// Window/level after a mouse drag of (dx, dy) pixels from `start` (y grows downward):
// dragging right widens the window (less contrast), dragging down raises the level (darker).
// Steps scale with the current width so the drag feels the same for CT and MR values.
WindowLevel dragWindowLevel(const WindowLevel& start, double dx, double dy);

}  // namespace delineate::viewers
