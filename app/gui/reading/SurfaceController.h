#pragma once
// Keeps the 3D view's segment surfaces current: a while after the last edit (debounced) it takes
// a worker copy of every label map with visible segments (EditSession::readCopy) and builds their
// surfaces in a background job (viewers::buildSegmentSurfaces: discrete flying edges +
// windowed-sinc smoothing), one colour table for all maps, then hands the vtkPolyData to the
// VolumeView on the GUI thread. A newer edit cancels a running build.
#include <QObject>
#include <memory>

#include "core/model/VoxelBox.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/SegmentSurfaceBuilder.h"

class QTimer;

namespace delineate::viewers {
class VolumeView;
}

namespace delineate::app {

class EditSession;
class JobRunner;

class SurfaceController : public QObject {
  Q_OBJECT

 public:
  SurfaceController(EditSession* session, viewers::VolumeView* view, int debounceMs = 500,
                    QObject* parent = nullptr);
  ~SurfaceController() override;

  viewers::SurfaceOptions& options() { return options_; }
  // True while a rebuild is scheduled or running.
  bool pending() const;
  // Rebuilds now (skips the debounce).
  void rebuildNow();
  // The compare view's surfaces (viewers::buildDistanceSurfaces) replace the segment surfaces,
  // coloured by signed distance within ±rangeMm, until clearDistanceSurfaces().
  void showDistanceSurfaces(vtkSmartPointer<vtkPolyData> surfaces,
                            const core::ImageGeometry& geometry, double rangeMm);
  void clearDistanceSurfaces();
  bool showsDistances() const { return showsDistances_; }
  // Number of surface sets handed to the view so far (tests).
  int builds() const { return builds_; }

 private:
  void schedule();
  static constexpr int kRetryMs = 30;

  EditSession* session_;
  viewers::VolumeView* view_;
  std::shared_ptr<viewers::LabelDisplayState> display_;
  int displayObserver_ = 0;
  QTimer* timer_;
  JobRunner* jobs_;
  viewers::SurfaceOptions options_;
  int builds_ = 0;
  bool showsDistances_ = false;
  unsigned generation_ = 0;  // results of older builds are dropped
};

}  // namespace delineate::app
