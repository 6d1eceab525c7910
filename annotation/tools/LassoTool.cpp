#include "annotation/tools/LassoTool.h"

#include <algorithm>
#include <memory>

#include "annotation/ops/BoxMask.h"
#include "annotation/ops/LogicalOp.h"
#include "annotation/ops/PolygonMask.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"

namespace delineate::annotation {

LassoTool::LassoTool(EditContext& context, LassoMode mode)
    : context_(context), mode_(mode), throughAllSlices_(mode != LassoMode::Fill) {}

void LassoTool::setMode(LassoMode mode) {
  mode_ = mode;
  throughAllSlices_ = mode != LassoMode::Fill;
}

void LassoTool::addPoint(const core::Vec3& p) {
  if (!outline_.empty()) {
    // Skip points closer than a quarter of the finest voxel to the previous one.
    const auto& sp = context_.labels->geometry().spacing;
    const double minStep = 0.25 * std::min({sp[0], sp[1], sp[2]});
    const core::Vec3& q = outline_.back();
    const core::Vec3 d{p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    if (core::dot(d, d) < minStep * minStep) {
      return;
    }
  }
  outline_.push_back(p);
}

bool LassoTool::pointer(const PointerEvent& e) {
  switch (e.action) {
    case PointerAction::Press:
      if (e.button != PointerButton::Left || !context_.labels) {
        return false;
      }
      outline_.clear();
      normal_ = e.sliceNormal;
      drawing_ = true;
      addPoint(e.world);
      return true;
    case PointerAction::Move:
      if (!drawing_) {
        return false;
      }
      addPoint(e.world);
      return true;
    case PointerAction::Release:
      if (!drawing_) {
        return false;
      }
      addPoint(e.world);
      finish();
      return true;
    case PointerAction::Cancel:
      cancel();
      return true;
  }
  return false;
}

void LassoTool::cancel() {
  drawing_ = false;
  outline_.clear();
}

void LassoTool::finish() {
  drawing_ = false;
  const std::vector<core::Vec3> outline = std::move(outline_);
  outline_.clear();
  core::LabelMap& map = *context_.labels;
  const BoxMask inside = polygonMask(map.geometry(), outline, normal_, throughAllSlices_);
  const std::uint16_t label = context_.activeLabel;
  std::unique_ptr<core::LabelMapEdit> edit;
  if (mode_ == LassoMode::Fill) {
    if (inside.box.empty()) {
      return;
    }
    edit = std::make_unique<core::LabelMapEdit>(map, context_.policy);
    applyPaint(*edit, inside, label);
  } else {
    // The scissors remove only the active segment's own voxels (always allowed unless locked).
    const BoxMask segment = extractSegment(map, label);
    const BoxMask cut = logicalOp(
        segment, mode_ == LassoMode::EraseInside ? inside : invertWithin(inside, segment.box),
        LogicalOp::Intersect);
    edit = std::make_unique<core::LabelMapEdit>(map, core::PaintPolicy{});
    applyPaint(*edit, cut, 0);
  }
  core::VoxelDelta delta = edit->commit();
  if (delta.empty()) {
    return;
  }
  const core::VoxelBox box = delta.box();
  if (context_.undo) {
    context_.undo->push(std::make_unique<core::VoxelEditCommand>(
        context_.labels, std::move(delta), mode_ == LassoMode::Fill ? "Lasso" : "Scissors"));
  }
  if (context_.changed) {
    context_.changed(box);
  }
}

}  // namespace delineate::annotation
