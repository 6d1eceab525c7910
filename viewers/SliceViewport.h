#pragma once
// Qt- and VTK-free 2D camera of a slice view: which slice-plane point (u, v, in mm along the
// view's screen axes) sits at which widget pixel, at what zoom. Pixel coordinates are device
// pixels, x to the right and y downward (Qt's convention), continuous (pixel i spans [i, i+1)).
#include <array>

namespace delineate::viewers {

class SliceViewport {
 public:
  void setViewSize(double widthPx, double heightPx);
  double viewWidth() const { return width_; }
  double viewHeight() const { return height_; }

  // Plane point shown at the centre of the view.
  void setCenter(double u, double v);
  std::array<double, 2> center() const { return {cu_, cv_}; }

  void setMmPerPixel(double mmPerPixel);
  double mmPerPixel() const { return mmPerPixel_; }
  // VTK's parallel scale: half the view height in mm.
  double parallelScale() const { return mmPerPixel_ * height_ / 2; }

  // Shows the rectangle {umin, umax, vmin, vmax} whole and centred, with a relative margin.
  void fit(const std::array<double, 4>& bounds, double margin = 0.02);

  std::array<double, 2> displayToPlane(double x, double y) const;
  std::array<double, 2> planeToDisplay(double u, double v) const;

  // Zooms by `factor` (>1 magnifies) keeping the plane point under pixel (x, y) in place.
  void zoomAbout(double x, double y, double factor);
  // Moves the content with the mouse by (dx, dy) pixels.
  void panBy(double dx, double dy);

 private:
  double width_ = 1;
  double height_ = 1;
  double cu_ = 0;
  double cv_ = 0;
  double mmPerPixel_ = 1;
};

}  // namespace delineate::viewers
