#pragma once
// Region grow on click (ITK-SNAP's and Slicer's flood fill): a left click grows the active
// segment from the clicked voxel over the image values in range; a plain click fills within the
// clicked slice, Shift+click in 3D. One click = one undo entry. The one region grow of the app
// and the tests: the app hands the fill to a job (setOffload), with progress and Cancel.
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "annotation/EditContext.h"
#include "annotation/ops/BoxMask.h"
#include "annotation/tools/Tool.h"

namespace delineate::annotation {

class RegionGrowTool : public Tool {
 public:
  explicit RegionGrowTool(EditContext& context) : context_(context) {}

  std::string id() const override { return "tool.regionGrow"; }
  bool pointer(const PointerEvent& event) override;

  // The range a click at `seed` grows over: context.intensityRange when set, else mean +- 2.5 SD
  // of the image in the 5x5x5 neighbourhood of the seed.
  std::pair<double, double> rangeAt(const core::Size3& seed) const;
  // The mask a click would fill (no edit): for previews and for running it as a job.
  BoxMask compute(const PointerEvent& event) const;

  // Unset (the tests): a click fills at once. Set (the app): `work` runs on a worker thread and
  // reads only the image; `apply` is called back on this thread with its mask and paints it into
  // the active segment under the paint-over policy, as one undo entry.
  using Offload =
      std::function<void(const std::string& title, std::function<BoxMask(core::ProgressSink&)> work,
                         std::function<void(BoxMask)> apply)>;
  void setOffload(Offload offload) { offload_ = std::move(offload); }

 private:
  std::optional<core::Size3> seedOf(const core::Vec3& world) const;
  void paint(const BoxMask& mask);

  EditContext& context_;
  Offload offload_;
};

// The index axis whose direction is closest to `normal` (the axis a slice view looks along).
int nearestIndexAxis(const core::ImageGeometry& g, const core::Vec3& normal);

}  // namespace delineate::annotation
