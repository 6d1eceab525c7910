#include "annotation/tools/LassoTool.h"

#include <algorithm>
#include <memory>

#include "annotation/ops/BoxMask.h"
#include "annotation/ops/LogicalOp.h"
#include "annotation/ops/PolygonMask.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"
#include "core/jobs/ProgressSink.h"

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

namespace {

// Writes an outline's effect into `edit` (in place, or staged on a worker): Fill paints the
// active segment inside it; the scissors remove only the active segment's own voxels (always
// allowed unless locked, whatever the paint-over policy).
void cut(core::LabelMapEdit& edit, const std::vector<core::Vec3>& outline, const core::Vec3& normal,
         bool throughAllSlices, LassoMode mode, std::uint16_t label,
         const core::ProgressSink* progress) {
  const core::LabelMap& map = edit.map();
  const BoxMask inside = polygonMask(map.geometry(), outline, normal, throughAllSlices);
  if (mode == LassoMode::Fill) {
    if (!inside.box.empty()) {
      applyPaint(edit, inside, label);
    }
    return;
  }
  if (progress != nullptr) {
    progress->throwIfCancelled();
  }
  const BoxMask segment = extractSegment(map, label);
  if (progress != nullptr) {
    progress->throwIfCancelled();
  }
  const BoxMask removed = logicalOp(
      segment, mode == LassoMode::EraseInside ? inside : invertWithin(inside, segment.box),
      LogicalOp::Intersect);
  applyPaint(edit, removed, 0);
}

}  // namespace

void LassoTool::finish() {
  drawing_ = false;
  const std::vector<core::Vec3> outline = std::move(outline_);
  outline_.clear();
  const std::uint16_t label = context_.activeLabel;
  const core::PaintPolicy policy = mode_ == LassoMode::Fill ? context_.policy : core::PaintPolicy{};
  if (offload_ && throughAllSlices_) {
    const std::shared_ptr<core::LabelMap> map = context_.labels;
    offload_(
        mode_ == LassoMode::Fill ? "Lasso through all slices" : "Scissors",
        [map, outline, normal = normal_, mode = mode_, label,
         policy](core::ProgressSink& progress) {
          core::LabelMapEdit edit = core::LabelMapEdit::staged(*map, policy);
          cut(edit, outline, normal, true, mode, label, &progress);
          return edit.commit();
        },
        [this, map](core::VoxelDelta delta) {
          if (context_.labels != map) {
            return;  // the map was closed meanwhile
          }
          delta.apply(*map, true);
          record(std::move(delta));
        });
    return;
  }
  core::LabelMapEdit edit(*context_.labels, policy);
  cut(edit, outline, normal_, throughAllSlices_, mode_, label, nullptr);
  record(edit.commit());
}

void LassoTool::record(core::VoxelDelta delta) {
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
