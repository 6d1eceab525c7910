#include "viewers/SliceViewport.h"

#include <algorithm>

namespace delineate::viewers {

void SliceViewport::setViewSize(double widthPx, double heightPx) {
  width_ = std::max(1.0, widthPx);
  height_ = std::max(1.0, heightPx);
}

void SliceViewport::setCenter(double u, double v) {
  cu_ = u;
  cv_ = v;
}

void SliceViewport::setMmPerPixel(double mmPerPixel) {
  mmPerPixel_ = std::clamp(mmPerPixel, 1e-4, 1e4);
}

void SliceViewport::fit(const std::array<double, 4>& b, double margin) {
  cu_ = (b[0] + b[1]) / 2;
  cv_ = (b[2] + b[3]) / 2;
  const double w = std::max(b[1] - b[0], 1e-6) * (1 + 2 * margin);
  const double h = std::max(b[3] - b[2], 1e-6) * (1 + 2 * margin);
  setMmPerPixel(std::max(w / width_, h / height_));
}

std::array<double, 2> SliceViewport::displayToPlane(double x, double y) const {
  return {cu_ + (x - width_ / 2) * mmPerPixel_, cv_ + (height_ / 2 - y) * mmPerPixel_};
}

std::array<double, 2> SliceViewport::planeToDisplay(double u, double v) const {
  return {width_ / 2 + (u - cu_) / mmPerPixel_, height_ / 2 - (v - cv_) / mmPerPixel_};
}

void SliceViewport::zoomAbout(double x, double y, double factor) {
  if (!(factor > 0)) {
    return;
  }
  const auto before = displayToPlane(x, y);
  setMmPerPixel(mmPerPixel_ / factor);
  const auto after = displayToPlane(x, y);
  cu_ += before[0] - after[0];
  cv_ += before[1] - after[1];
}

void SliceViewport::panBy(double dx, double dy) {
  cu_ -= dx * mmPerPixel_;
  cv_ += dy * mmPerPixel_;
}

}  // namespace delineate::viewers
