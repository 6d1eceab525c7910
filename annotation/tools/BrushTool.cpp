#include "annotation/tools/BrushTool.h"

#include <algorithm>
#include <cmath>

#include "core/edit/VoxelEditCommand.h"

namespace delineate::annotation {

namespace {

// The voxels a brush of radius r swept from a to b may touch: the index box of the segment's
// world bounding box grown by r, clipped to the map.
core::VoxelBox sweptBox(const core::ImageGeometry& g, const core::Vec3& a, const core::Vec3& b,
                        double r) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (int corner = 0; corner < 8; ++corner) {
    core::Vec3 p{};
    for (int x = 0; x < 3; ++x) {
      p[x] = (corner >> x) & 1 ? std::max(a[x], b[x]) + r : std::min(a[x], b[x]) - r;
    }
    const core::Vec3 ijk = g.worldToIndex(p);
    for (int x = 0; x < 3; ++x) {
      lo[x] = std::min(lo[x], ijk[x]);
      hi[x] = std::max(hi[x], ijk[x]);
    }
  }
  core::VoxelBox box;
  for (int x = 0; x < 3; ++x) {
    const long from = std::max(0L, static_cast<long>(std::floor(lo[x])));
    const long to = std::min(static_cast<long>(g.size[x]), static_cast<long>(std::ceil(hi[x])) + 1);
    if (from >= to) {
      return {};
    }
    box.lo[x] = std::size_t(from);
    box.hi[x] = std::size_t(to);
  }
  return box;
}

}  // namespace

BrushTool::BrushTool(EditContext& context, bool eraser) : context_(context), eraser_(eraser) {}

BrushTool::~BrushTool() {
  cancel();
}

void BrushTool::scaleRadius(double factor) {
  shape_.radiusMm = std::clamp(shape_.radiusMm * factor, 0.5, 100.0);
}

void BrushTool::stampTo(const core::Vec3& point, const core::Vec3& normal) {
  const std::uint16_t value = eraser_ ? 0 : context_.activeLabel;
  // Step at most a quarter of the radius (and of the finest voxel) so the swept path has no gaps.
  const auto& sp = context_.labels->geometry().spacing;
  const double step =
      std::max(0.05, std::min(shape_.radiusMm * 0.25, std::min({sp[0], sp[1], sp[2]})));
  const core::Vec3 d{point[0] - last_[0], point[1] - last_[1], point[2] - last_[2]};
  const double length = std::sqrt(core::dot(d, d));
  const int steps = std::max(1, static_cast<int>(std::ceil(length / step)));
  for (int s = 1; s <= steps; ++s) {
    const double t = double(s) / steps;
    const core::Vec3 p{last_[0] + t * d[0], last_[1] + t * d[1], last_[2] + t * d[2]};
    stampBrush(*edit_, p, normal, shape_, value, context_.image.get(), context_.intensityRange);
  }
  // Views re-draw only what this move can have changed (not the whole stroke so far).
  if (context_.changed && edit_->changedVoxels() != notifiedChanges_) {
    notifiedChanges_ = edit_->changedVoxels();
    context_.changed(sweptBox(context_.labels->geometry(), last_, point, shape_.radiusMm));
  }
  last_ = point;
}

bool BrushTool::pointer(const PointerEvent& e) {
  switch (e.action) {
    case PointerAction::Press:
      if (e.button != PointerButton::Left || !context_.labels) {
        return false;
      }
      cancel();
      edit_ = std::make_unique<core::LabelMapEdit>(*context_.labels, context_.policy);
      notifiedChanges_ = 0;
      last_ = e.world;
      stampBrush(*edit_, e.world, e.sliceNormal, shape_, eraser_ ? 0 : context_.activeLabel,
                 context_.image.get(), context_.intensityRange);
      stampTo(e.world, e.sliceNormal);
      return true;
    case PointerAction::Move:
      if (!edit_) {
        return false;
      }
      stampTo(e.world, e.sliceNormal);
      return true;
    case PointerAction::Release: {
      if (!edit_) {
        return false;
      }
      stampTo(e.world, e.sliceNormal);
      core::VoxelDelta delta = edit_->commit();
      edit_.reset();
      if (!delta.empty() && context_.undo) {
        context_.undo->push(std::make_unique<core::VoxelEditCommand>(
            context_.labels, std::move(delta), eraser_ ? "Erase" : "Paint"));
      }
      return true;
    }
    case PointerAction::Cancel:
      cancel();
      return true;
  }
  return false;
}

void BrushTool::cancel() {
  if (edit_) {
    const core::VoxelBox box = edit_->dirtyBox();
    edit_->rollback();
    edit_.reset();
    if (context_.changed && !box.empty()) {
      context_.changed(box);
    }
  }
}

}  // namespace delineate::annotation
