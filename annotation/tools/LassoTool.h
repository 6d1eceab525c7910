#pragma once
// Lasso and scissors: press-drag-release draws a closed outline on the slice plane. The lasso
// fills it with the active segment on that slice; the scissors erase the active segment inside
// or outside it through all slices. One outline = one undo entry.
#include <functional>
#include <string>
#include <vector>

#include "annotation/EditContext.h"
#include "annotation/tools/Tool.h"
#include "core/edit/VoxelDelta.h"

namespace delineate::core {
class ProgressSink;
}

namespace delineate::annotation {

enum class LassoMode {
  Fill,          // paint the active segment inside the outline
  EraseInside,   // scissors: remove the active segment inside the outline
  EraseOutside,  // scissors: remove the active segment outside the outline
};

class LassoTool : public Tool {
 public:
  explicit LassoTool(EditContext& context, LassoMode mode = LassoMode::Fill);

  std::string id() const override {
    return mode_ == LassoMode::Fill ? "tool.lasso" : "tool.scissors";
  }
  bool pointer(const PointerEvent& event) override;
  void cancel() override;

  LassoMode mode() const { return mode_; }
  // Also resets throughAllSlices: off for Fill, on for the scissors.
  void setMode(LassoMode mode);
  bool throughAllSlices() const { return throughAllSlices_; }
  void setThroughAllSlices(bool on) { throughAllSlices_ = on; }

  // Where an outline through all slices is worked out (it may read the whole map). Unset: here,
  // at once. Set (the app): `work` runs on a worker thread and only reads the map, which must not
  // change until `apply` is called back on this thread with its result.
  using Offload = std::function<void(const std::string& title,
                                     std::function<core::VoxelDelta(core::ProgressSink&)> work,
                                     std::function<void(core::VoxelDelta)> apply)>;
  void setOffload(Offload offload) { offload_ = std::move(offload); }

  // The outline drawn so far (LPS mm), for the view to draw while the button is down.
  const std::vector<core::Vec3>& outline() const { return outline_; }
  std::vector<core::Vec3> drawnOutline(bool& closed) const override {
    closed = false;
    return drawing_ ? outline_ : std::vector<core::Vec3>{};
  }
  bool drawing() const { return drawing_; }

 private:
  void addPoint(const core::Vec3& p);
  void finish();
  // The undo entry and the change notice for a finished outline.
  void record(core::VoxelDelta delta);

  EditContext& context_;
  LassoMode mode_;
  bool throughAllSlices_;
  bool drawing_ = false;
  std::vector<core::Vec3> outline_;
  core::Vec3 normal_{0, 0, 1};
  Offload offload_;
};

}  // namespace delineate::annotation
