#include "app/gui/reading/SurfaceController.h"

#include <vtkAppendPolyData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>

#include <QTimer>
#include <optional>

#include "app/gui/editing/EditSession.h"
#include "app/gui/shell/JobRunner.h"
#include "viewers/VolumeView.h"

namespace delineate::app {

namespace {

struct MapInput {
  std::shared_ptr<const core::LabelMap> copy;
  std::vector<std::uint16_t> labels;
  double offset = 0;  // added to the label values: one colour table for every map
};

// Any thread: the surfaces of every map, scalars shifted into the combined colour table.
vtkSmartPointer<vtkPolyData> buildAll(const std::vector<MapInput>& inputs,
                                      const viewers::SurfaceOptions& options,
                                      core::ProgressSink& progress) {
  vtkNew<vtkAppendPolyData> append;
  int parts = 0;
  for (std::size_t m = 0; m < inputs.size(); ++m) {
    const MapInput& in = inputs[m];
    const double share = 1.0 / static_cast<double>(inputs.size());
    core::SubProgress sub(progress, share * static_cast<double>(m),
                          share * static_cast<double>(m + 1));
    const core::VoxelBox box = viewers::labelContentBox(*in.copy);
    sub.throwIfCancelled();
    const viewers::LabelSnapshot snapshot = viewers::snapshotLabels(*in.copy, box, in.labels);
    vtkSmartPointer<vtkPolyData> surfaces = viewers::buildSegmentSurfaces(snapshot, options, sub);
    if (surfaces->GetNumberOfPoints() == 0) {
      continue;
    }
    if (in.offset != 0) {
      vtkDataArray* scalars = surfaces->GetPointData()->GetScalars();
      for (vtkIdType i = 0; scalars && i < scalars->GetNumberOfTuples(); ++i) {
        scalars->SetTuple1(i, scalars->GetTuple1(i) + in.offset);
      }
    }
    append->AddInputData(surfaces);
    ++parts;
  }
  if (parts == 0) {
    return vtkSmartPointer<vtkPolyData>::New();
  }
  append->Update();
  return append->GetOutput();
}

}  // namespace

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
  connect(session_, &EditSession::labelMapsChanged, this, &SurfaceController::schedule);
  connect(session_, &EditSession::segmentsChanged, this, &SurfaceController::schedule);
  connect(session_, &EditSession::voxelsChanged, this, &SurfaceController::schedule);
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

void SurfaceController::schedule() {
  timer_->start();
}

void SurfaceController::showDistanceSurfaces(vtkSmartPointer<vtkPolyData> surfaces,
                                             const core::ImageGeometry& geometry, double rangeMm) {
  timer_->stop();
  jobs_->cancel();
  ++generation_;
  showsDistances_ = true;
  view_->setSurfaceDistanceRange(rangeMm);
  view_->setSurfaces(std::move(surfaces), geometry);
  ++builds_;
}

void SurfaceController::clearDistanceSurfaces() {
  if (!showsDistances_) {
    return;
  }
  showsDistances_ = false;
  view_->setSurfaceDistanceRange(0);
  rebuildNow();
}

void SurfaceController::rebuildNow() {
  timer_->stop();
  if (showsDistances_) {
    return;  // the compare view's surfaces stay until it clears them
  }
  std::vector<MapInput> inputs;
  std::vector<viewers::LabelColor> colors;
  std::optional<core::ImageGeometry> geometry;
  for (const auto& map : session_->document().labelMaps()) {
    std::vector<std::uint16_t> labels = display_->visibleLabels(*map);
    if (labels.empty()) {
      continue;
    }
    auto copy = session_->readCopy(*map);
    if (!copy) {
      timer_->start(kRetryMs);  // the copy is being brought up to date
      return;
    }
    const std::vector<viewers::LabelColor> table = display_->colorTable(*map);
    inputs.push_back({std::move(copy), std::move(labels), static_cast<double>(colors.size())});
    colors.insert(colors.end(), table.begin(), table.end());
    geometry = map->geometry();
  }
  const unsigned generation = ++generation_;
  if (inputs.empty()) {
    jobs_->cancel();
    view_->setSurfaces(nullptr, {});
    return;
  }
  const viewers::SurfaceOptions options = options_;
  jobs_->run<vtkSmartPointer<vtkPolyData>>(
      tr("Building surfaces"),
      [inputs = std::move(inputs), options](core::ProgressSink& progress) {
        return buildAll(inputs, options, progress);
      },
      [this, geometry = *geometry, colors = std::move(colors),
       generation](vtkSmartPointer<vtkPolyData> surfaces) {
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
