#include "app/gui/SurfaceController.h"

#include <vtkPolyData.h>

#include <QTimer>

#include "app/gui/EditSession.h"
#include "app/gui/JobRunner.h"
#include "viewers/VolumeView.h"

namespace delineate::app {

SurfaceController::SurfaceController(EditSession* session, viewers::VolumeView* view,
                                     int debounceMs, QObject* parent)
    : QObject(parent),
      session_(session),
      view_(view),
      display_(session->display()),
      timer_(new QTimer(this)),
      jobs_(new JobRunner(this)) {
  timer_->setSingleShot(true);
  timer_->setInterval(debounceMs);
  connect(timer_, &QTimer::timeout, this, &SurfaceController::rebuildNow);
  connect(session_, &EditSession::labelMapsChanged, this, &SurfaceController::onMapsChanged);
  connect(session_, &EditSession::segmentsChanged, this, &SurfaceController::schedule);
  connect(session_, &EditSession::voxelsChanged, this, [this](const core::VoxelBox& box) {
    content_.include(box);
    schedule();
  });
  // Segment opacity set to 0 in the dock hides a surface too.
  displayObserver_ = display_->addObserver([this](const viewers::LabelChange& c) {
    if (c.kind == viewers::LabelChange::Segments) {
      schedule();
    }
  });
}

SurfaceController::~SurfaceController() {
  display_->removeObserver(displayObserver_);
  jobs_->cancel();
  jobs_->waitForIdle();
}

bool SurfaceController::pending() const {
  return timer_->isActive() || jobs_->busy();
}

void SurfaceController::onMapsChanged() {
  const auto map = session_->activeMap();
  if (map.get() != map_) {
    map_ = map.get();
    content_ = map ? viewers::labelContentBox(*map) : core::VoxelBox{};
  }
  schedule();
}

void SurfaceController::schedule() {
  timer_->start();
}

void SurfaceController::rebuildNow() {
  timer_->stop();
  const unsigned generation = ++generation_;
  const auto map = session_->activeMap();
  if (!map || map.get() != map_) {
    jobs_->cancel();
    view_->setSurfaces(nullptr, {});
    return;
  }
  auto snapshot = std::make_shared<const viewers::LabelSnapshot>(
      viewers::snapshotLabels(*map, content_, session_->display()->visibleLabels(*map)));
  const viewers::SurfaceOptions options = options_;
  const core::ImageGeometry geometry = map->geometry();
  const std::vector<viewers::LabelColor> colors = session_->display()->colorTable(*map);
  jobs_->run<vtkSmartPointer<vtkPolyData>>(
      tr("Building surfaces"),
      [snapshot, options](core::ProgressSink& progress) {
        return viewers::buildSegmentSurfaces(*snapshot, options, progress);
      },
      [this, geometry, colors, generation](vtkSmartPointer<vtkPolyData> surfaces) {
        if (generation != generation_) {
          return;  // finished although cancelled: a newer state is coming
        }
        view_->setSurfaceColors(colors);
        view_->setSurfaces(std::move(surfaces), geometry);
        ++builds_;
      },
      [](const QString&, bool) {});
}

}  // namespace delineate::app
