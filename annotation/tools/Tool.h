#pragma once
#include <string>
#include <vector>

#include "annotation/tools/PointerEvent.h"

namespace delineate::annotation {

// An interaction mode that turns pointer events into edits (brush, fill, lasso, AI clicks, ...).
class Tool {
 public:
  virtual ~Tool() = default;
  virtual std::string id() const = 0;  // command id, e.g. "tool.brush"
  // Returns true when the event was used (the view then does not pan/scroll with it).
  virtual bool pointer(const PointerEvent& event) = 0;
  // Abandons an unfinished operation, leaving the label map as it was before it began.
  virtual void cancel() {}
  // What the view draws while the tool is in use (a lasso's outline, a box being dragged; LPS
  // mm, on the slice), and whether the last point joins the first. Empty: nothing.
  virtual std::vector<core::Vec3> drawnOutline(bool& closed) const {
    closed = false;
    return {};
  }
  // The radius (mm) of the circle drawn round the cursor while the tool hovers over a slice (a
  // brush's size); 0: none.
  virtual double hoverRadiusMm() const { return 0; }
  // Whether Ctrl+wheel resizes the tool (the view asks its owner to scale it) instead of zooming.
  virtual bool resizesWithWheel() const { return false; }
};

}  // namespace delineate::annotation
