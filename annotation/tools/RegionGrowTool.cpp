#include "annotation/tools/RegionGrowTool.h"

#include <cmath>
#include <memory>

#include "annotation/ops/RegionGrow.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"

namespace delineate::annotation {

int nearestIndexAxis(const core::ImageGeometry& g, const core::Vec3& normal) {
  int best = 0;
  double bestDot = -1;
  for (int a = 0; a < 3; ++a) {
    const double d = std::abs(core::dot(g.axis(a), normal));
    if (d > bestDot) {
      bestDot = d;
      best = a;
    }
  }
  return best;
}

std::optional<core::Size3> RegionGrowTool::seedOf(const core::Vec3& world) const {
  if (!context_.image || !context_.labels) {
    return std::nullopt;
  }
  const core::ImageGeometry& g = context_.image->geometry();
  const core::Vec3 ijk = g.worldToIndex(world);
  core::Size3 seed{};
  for (int a = 0; a < 3; ++a) {
    const long v = std::lround(ijk[a]);
    if (v < 0 || v >= long(g.size[a])) {
      return std::nullopt;
    }
    seed[a] = std::size_t(v);
  }
  return seed;
}

std::pair<double, double> RegionGrowTool::rangeAt(const core::Size3& seed) const {
  if (context_.intensityRange) {
    return *context_.intensityRange;
  }
  return neighbourhoodRange(*context_.image, seed, 2, 2.5);
}

BoxMask RegionGrowTool::compute(const PointerEvent& e) const {
  const std::optional<core::Size3> seed = seedOf(e.world);
  if (!seed) {
    return {};
  }
  const auto [lo, hi] = rangeAt(*seed);
  std::optional<int> sliceAxis;
  if (!e.shift) {
    sliceAxis = nearestIndexAxis(context_.image->geometry(), e.sliceNormal);
  }
  core::NullProgress progress;
  return regionGrow(*context_.image, *seed, lo, hi, sliceAxis, progress);
}

bool RegionGrowTool::pointer(const PointerEvent& e) {
  if (e.action != PointerAction::Press || e.button != PointerButton::Left) {
    return false;
  }
  const std::optional<core::Size3> seed = seedOf(e.world);
  if (!seed) {
    return false;
  }
  if (!offload_) {
    paint(compute(e));
    return true;
  }
  // Seed, range and plane are read now, on this thread; the fill reads only the image.
  const core::VolumePtr image = context_.image;
  const auto [lo, hi] = rangeAt(*seed);
  std::optional<int> sliceAxis;
  if (!e.shift) {
    sliceAxis = nearestIndexAxis(image->geometry(), e.sliceNormal);
  }
  offload_(
      e.shift ? "Region grow (3D)" : "Region grow",
      [image, s = *seed, lo = lo, hi = hi, sliceAxis](core::ProgressSink& progress) {
        return regionGrow(*image, s, lo, hi, sliceAxis, progress);
      },
      [this](BoxMask mask) { paint(mask); });
  return true;
}

void RegionGrowTool::paint(const BoxMask& mask) {
  if (!context_.labels || mask.box.empty()) {
    return;
  }
  core::LabelMapEdit edit(*context_.labels, context_.policy);
  applyPaint(edit, mask, context_.activeLabel);
  core::VoxelDelta delta = edit.commit();
  if (!delta.empty()) {
    const core::VoxelBox box = delta.box();
    if (context_.undo) {
      context_.undo->push(std::make_unique<core::VoxelEditCommand>(
          context_.labels, std::move(delta), "Region grow"));
    }
    if (context_.changed) {
      context_.changed(box);
    }
  }
}

}  // namespace delineate::annotation
