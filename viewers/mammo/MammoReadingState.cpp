#include "viewers/mammo/MammoReadingState.h"

#include <algorithm>

namespace delineate::viewers {

void MammoReadingState::setZoom(const core::mammo::LinkedZoom& zoom) {
  zoom_ = zoom;
  if (zoom_.pixelsPerMm) {
    zoom_.pixelsPerMm = std::clamp(*zoom_.pixelsPerMm, 0.05, 400.0);
  }
  Q_EMIT viewChanged();
}

void MammoReadingState::fit() {
  setZoom({});
}

void MammoReadingState::setWindow(std::optional<MammoWindow> window) {
  if (window) {
    window->width = std::max(window->width, 1.0);
  }
  window_ = window;
  Q_EMIT displayChanged();
}

void MammoReadingState::setInverted(bool inverted) {
  if (inverted_ != inverted) {
    inverted_ = inverted;
    Q_EMIT displayChanged();
  }
}

void MammoReadingState::setTool(MammoTool tool) {
  if (tool_ != tool) {
    tool_ = tool;
    if (tool != MammoTool::Magnifier) {
      loupe_.reset();
      Q_EMIT viewChanged();
    }
    Q_EMIT toolChanged(tool);
  }
}

void MammoReadingState::setLoupe(std::optional<std::array<double, 2>> depthAndHeightMm) {
  loupe_ = depthAndHeightMm;
  Q_EMIT viewChanged();
}

void MammoReadingState::setLoupeMagnification(double factor) {
  loupeMagnification_ = std::clamp(factor, 1.0, 8.0);
  Q_EMIT viewChanged();
}

void MammoReadingState::setHeatmap(bool shown, double opacity, double threshold) {
  heatmapShown_ = shown;
  heatmapOpacity_ = std::clamp(opacity, 0.0, 1.0);
  heatmapThreshold_ = std::clamp(threshold, 0.0, 1.0);
  Q_EMIT findingsDisplayChanged();
}

void MammoReadingState::setMarksShown(bool shown) {
  marksShown_ = shown;
  Q_EMIT findingsDisplayChanged();
}

void MammoReadingState::setOptionalMarksShown(bool shown) {
  optionalMarksShown_ = shown;
  Q_EMIT findingsDisplayChanged();
}

void MammoReadingState::setSlab(core::mammo::SlabMode mode, double mm) {
  mm = std::clamp(mm, 0.5, 200.0);
  if (mode != slabMode_ || mm != slabMm_) {
    slabMode_ = mode;
    slabMm_ = mm;
    Q_EMIT slabChanged();
  }
}

void MammoReadingState::setCurrentMark(int index) {
  currentMark_ = index;
  Q_EMIT findingsDisplayChanged();
}

}  // namespace delineate::viewers
