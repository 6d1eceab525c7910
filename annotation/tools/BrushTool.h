#pragma once
// Brush and eraser: a press starts a stroke, moves stamp discs (or balls) along the path with no
// gaps, the release commits the whole stroke as one undo entry.
#include <memory>
#include <optional>

#include "annotation/EditContext.h"
#include "annotation/tools/BrushStamp.h"
#include "annotation/tools/Tool.h"

namespace delineate::annotation {

class BrushTool : public Tool {
 public:
  explicit BrushTool(EditContext& context, bool eraser = false);
  ~BrushTool() override;

  std::string id() const override { return eraser_ ? "tool.eraser" : "tool.brush"; }
  bool pointer(const PointerEvent& event) override;
  void cancel() override;

  BrushShape& shape() { return shape_; }
  const BrushShape& shape() const { return shape_; }
  double hoverRadiusMm() const override { return shape_.radiusMm; }
  bool resizesWithWheel() const override { return true; }
  // Ctrl+wheel and the [ ] shortcuts: multiply the radius, kept within [0.5, 100] mm.
  void scaleRadius(double factor);
  bool stroking() const { return edit_ != nullptr; }

 private:
  void stampTo(const core::Vec3& point, const core::Vec3& normal);

  EditContext& context_;
  bool eraser_;
  BrushShape shape_;
  std::unique_ptr<core::LabelMapEdit> edit_;
  core::Vec3 last_{};
  std::size_t notifiedChanges_ = 0;  // edit_->changedVoxels() when context.changed last ran
};

}  // namespace delineate::annotation
