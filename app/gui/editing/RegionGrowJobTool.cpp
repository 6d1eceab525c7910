#include "app/gui/editing/RegionGrowJobTool.h"

#include <cmath>
#include <memory>

#include "annotation/ops/RegionGrow.h"
#include "annotation/tools/RegionGrowTool.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"

namespace delineate::app {

bool RegionGrowJobTool::pointer(const annotation::PointerEvent& e) {
  if (e.action != annotation::PointerAction::Press || e.button != annotation::PointerButton::Left) {
    return false;
  }
  annotation::EditContext& context = session_->context();
  const core::VolumePtr image = context.image;
  if (!image || !context.labels) {
    return false;
  }
  const core::ImageGeometry& g = image->geometry();
  const core::Vec3 ijk = g.worldToIndex(e.world);
  core::Size3 seed{};
  for (int a = 0; a < 3; ++a) {
    const long v = std::lround(ijk[a]);
    if (v < 0 || v >= long(g.size[a])) {
      return false;
    }
    seed[a] = std::size_t(v);
  }
  const auto [lo, hi] = context.intensityRange
                            ? *context.intensityRange
                            : annotation::neighbourhoodRange(*image, seed, 2, 2.5);
  std::optional<int> sliceAxis;
  if (!e.shift) {
    sliceAxis = annotation::nearestIndexAxis(g, e.sliceNormal);
  }
  EditSession* session = session_;
  jobs_->run<annotation::BoxMask>(
      e.shift ? QObject::tr("Region grow (3D)") : QObject::tr("Region grow"),
      [image, seed, lo, hi, sliceAxis](core::ProgressSink& progress) {
        return annotation::regionGrow(*image, seed, lo, hi, sliceAxis, progress);
      },
      [session](annotation::BoxMask mask) {
        annotation::EditContext& c = session->context();
        if (!c.labels || mask.box.empty()) {
          return;
        }
        core::LabelMapEdit edit(*c.labels, c.policy);
        annotation::applyPaint(edit, mask, c.activeLabel);
        core::VoxelDelta delta = edit.commit();
        if (!delta.empty()) {
          c.undo->push(
              std::make_unique<core::VoxelEditCommand>(c.labels, std::move(delta), "Region grow"));
        }
        session->flush();
      });
  return true;
}

}  // namespace delineate::app
