#pragma once
// Region grow for the app (tool.regionGrow): a left click grows the active segment from the
// clicked voxel over the image values in range (context.intensityRange, else mean +- 2.5 SD
// around the seed) — within the clicked slice, or in 3D with Shift. The fill is computed by an
// EditJobs job from the immutable image and applied on the GUI thread as one undo entry under
// the paint-over policy.
#include "annotation/tools/Tool.h"

namespace delineate::app {

class EditJobs;
class EditSession;

class RegionGrowJobTool : public annotation::Tool {
 public:
  RegionGrowJobTool(EditSession* session, EditJobs* jobs) : session_(session), jobs_(jobs) {}

  std::string id() const override { return "tool.regionGrow"; }
  bool pointer(const annotation::PointerEvent& event) override;

 private:
  EditSession* session_;
  EditJobs* jobs_;
};

}  // namespace delineate::app
