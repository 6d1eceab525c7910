#pragma once
// Region grow on click (ITK-SNAP's and Slicer's flood fill): a left click grows the active
// segment from the clicked voxel over the image values in range; a plain click fills within the
// clicked slice, Shift+click in 3D. One click = one undo entry.
#include <optional>
#include <utility>

#include "annotation/EditContext.h"
#include "annotation/ops/BoxMask.h"
#include "annotation/tools/Tool.h"

namespace delineate::annotation {

class RegionGrowTool : public Tool {
 public:
  explicit RegionGrowTool(EditContext& context) : context_(context) {}

  std::string id() const override { return "tool.region_grow"; }
  bool pointer(const PointerEvent& event) override;

  // The range a click at `seed` grows over: context.intensityRange when set, else mean +- 2.5 SD
  // of the image in the 5x5x5 neighbourhood of the seed.
  std::pair<double, double> rangeAt(const core::Size3& seed) const;
  // The mask a click would fill (no edit): for previews and for running it as a job.
  BoxMask compute(const PointerEvent& event) const;

 private:
  std::optional<core::Size3> seedOf(const core::Vec3& world) const;

  EditContext& context_;
};

// The index axis whose direction is closest to `normal` (the axis a slice view looks along).
int nearestIndexAxis(const core::ImageGeometry& g, const core::Vec3& normal);

}  // namespace delineate::annotation
