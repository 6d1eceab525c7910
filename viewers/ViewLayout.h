#pragma once
// The central view area: three linked slice views and a 3D view, arranged as
//   "1x1"  one view (the axial view, or the one last maximised by double-click),
//   "1x3"  axial | coronal | sagittal,
//   "2x2"  axial   | sagittal
//          coronal | 3D          (ITK-SNAP's arrangement).
#include <QStringList>
#include <QWidget>
#include <array>
#include <memory>

#include "core/model/Volume.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/MarkerState.h"
#include "viewers/PointerInfo.h"
#include "viewers/ViewState.h"

class QGridLayout;

namespace delineate::viewers {

class SliceView;
class ToolEventRouter;
class VolumeView;

class ViewLayout : public QWidget {
  Q_OBJECT

 public:
  explicit ViewLayout(QWidget* parent = nullptr);
  ~ViewLayout() override;

  static QStringList layoutNames() { return {"1x1", "1x3", "2x2"}; }
  // Returns false for an unknown name (the layout stays as it was).
  bool setLayoutName(const QString& name);
  const QString& layoutName() const { return layout_; }

  void setVolume(core::VolumePtr volume);
  // Another frame of the shown 4-D image (same grid): cursor, window, zoom and camera stay.
  void setFrame(core::VolumePtr frame);
  const std::shared_ptr<ViewState>& state() const { return state_; }
  // Label maps and how they are drawn, shared by the three slice views.
  const std::shared_ptr<LabelDisplayState>& labelState() const { return labelState_; }
  // AI click markers, drawn by every slice view.
  const std::shared_ptr<MarkerState>& markerState() const { return markerState_; }
  // Routes the slice views' mouse events to editing tools first.
  void setToolRouter(ToolEventRouter* router);

  SliceView* sliceView(int index) const { return slices_[index]; }  // 0 axial, 1 coronal, 2 sag.
  VolumeView* volumeView() const { return volumeView_; }
  // The view shown alone in "1x1": 0..2 slice views, 3 the 3D view.
  void setSingleView(int index);
  int singleView() const { return single_; }

  // The views the current layout shows.
  QList<QWidget*> visibleViews() const;
  // True once every shown view rendered a frame with the current volume, labels and surfaces.
  bool allViewsRendered() const;
  // Every visible view shows the image, the 3D view possibly still at its coarse first level.
  bool allViewsShowImage() const;
  void resetViews();

 Q_SIGNALS:
  void pointerMoved(const delineate::viewers::PointerInfo& info);
  void layoutChanged(const QString& name);

 private:
  void arrange();
  void toggleMaximized(int index);

  std::shared_ptr<ViewState> state_;
  std::shared_ptr<LabelDisplayState> labelState_;
  std::shared_ptr<MarkerState> markerState_;
  std::array<SliceView*, 3> slices_{};
  VolumeView* volumeView_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QString layout_ = QStringLiteral("2x2");
  QString beforeMaximize_;
  int single_ = 0;
};

}  // namespace delineate::viewers
