#pragma once
// Keeps the 3D view's segment surfaces current: a while after the last edit (debounced) it copies
// the part of the active label map that holds segments and builds the surfaces in a background
// job (viewers::buildSegmentSurfaces: discrete flying edges + windowed-sinc smoothing), then hands
// the vtkPolyData to the VolumeView on the GUI thread. A newer edit cancels a running build.
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
  // Number of surface sets handed to the view so far (tests).
  int builds() const { return builds_; }

 private:
  void onMapsChanged();
  void schedule();

  EditSession* session_;
  viewers::VolumeView* view_;
  std::shared_ptr<viewers::LabelDisplayState> display_;
  int displayObserver_ = 0;
  QTimer* timer_;
  JobRunner* jobs_;
  viewers::SurfaceOptions options_;
  const core::LabelMap* map_ = nullptr;
  core::VoxelBox content_;  // holds every non-zero voxel of map_ (grows with edits)
  int builds_ = 0;
  unsigned generation_ = 0;  // results of older builds are dropped
};

}  // namespace delineate::app
