#pragma once
// One patient-aligned slice view (axial, coronal or sagittal) of the shared ViewState: a VTK
// canvas plus a slice slider.
//
// Mouse: left click/drag moves the linked cursor (all views follow); Shift+left drag changes
// window (horizontal) and level (vertical); right drag zooms (up = in); middle drag, or
// Ctrl+left drag, pans; wheel scrolls slices; Ctrl+wheel zooms about the mouse; double-click
// asks the layout to maximise this view. Keys: Up/Right/PageUp next slice(s), Down/Left/PageDown
// previous (PageUp/PageDown move 10), Home/End first/last slice, R resets zoom and pan.
#include <QPointF>
#include <QPointer>
#include <QWidget>
#include <memory>
#include <vector>

#include "viewers/LabelDisplayState.h"
#include "viewers/MarkerState.h"
#include "viewers/PointerInfo.h"
#include "viewers/SliceGeometry.h"
#include "viewers/SliceViewport.h"
#include "viewers/ViewState.h"

class QSlider;

namespace delineate::viewers {

class SliceScoreStrip;
class SliceScene;
class ToolEventRouter;
class VtkOpenGLWidget;

class SliceView : public QWidget {
  Q_OBJECT

 public:
  SliceView(SliceOrientation orientation, std::shared_ptr<ViewState> state,
            QWidget* parent = nullptr);
  ~SliceView() override;

  SliceOrientation orientation() const { return orientation_; }
  VtkOpenGLWidget* canvas() const { return canvas_; }
  QSlider* slider() const { return slider_; }
  // The per-slice score strip beside the slider (hidden until scores are set).
  SliceScoreStrip* scoreStrip() const { return scoreStrip_; }
  // One score in [0, 1] per slice of this view (index = sliceIndex()), NaN where none, named in
  // the tooltip ("Dice"); empty hides the strip. Clicking the strip goes to that slice.
  void setSliceScores(std::vector<double> scores, const QString& name);
  const SliceViewport& viewport() const { return viewport_; }
  const std::shared_ptr<ViewState>& state() const { return state_; }

  int sliceCount() const;
  int sliceIndex() const;
  void setSliceIndex(int index);
  void stepSlices(int delta);
  // Fits the whole volume in the view.
  void resetView();
  // Zooms about the view centre (factor > 1 magnifies).
  void zoomBy(double factor);

  // Where a world point appears on the canvas, in logical pixels (continuous coordinates).
  QPointF worldToCanvas(const core::Vec3& world) const;
  // The world point on the current slice under a canvas position (logical pixels).
  core::Vec3 canvasToWorld(const QPointF& position) const;
  PointerInfo probe(const QPointF& position) const;

  // True once a frame showing the current volume was rendered.
  bool hasRenderedVolume() const;
  // The L/R/A/P/S/I letters show (not for images that do not say how the patient lies).
  bool showsOrientationLetters() const;
  // True once a frame showing the latest label change was rendered.
  bool hasRenderedLabels() const;

  // Label overlays: the label maps and display settings of `state` (shared by all views).
  void setLabelState(std::shared_ptr<LabelDisplayState> state);
  const std::shared_ptr<LabelDisplayState>& labelState() const { return labelState_; }
  // Mouse, wheel and key events go to the router first; the view navigates only with what the
  // active tool does not use.
  void setToolRouter(ToolEventRouter* router);
  // A polyline through world points (projected onto this view's plane) drawn over the slice;
  // empty hides it. Used for the brush circle and the lasso outline.
  void setToolOutline(const std::vector<core::Vec3>& world, bool closed);
  // AI click markers (shared by all views): those within half a voxel of this view's slice are
  // drawn, green rings with a cross for positive clicks, red for negative, yellow for extremes.
  void setMarkerState(std::shared_ptr<MarkerState> markers);
  // Markers drawn on the current slice (tests).
  std::size_t shownMarkers() const;
  // Texture bytes the label overlay marked for upload so far (tests, benchmark).
  std::size_t labelUploadedBytes() const;
  // The label value drawn at a canvas position for `map` (0 when none).
  std::uint16_t labelAt(const core::LabelMap* map, const QPointF& position) const;

 Q_SIGNALS:
  void pointerMoved(const delineate::viewers::PointerInfo& info);
  void maximizeRequested();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  enum class Drag { None, Cursor, WindowLevel, Pan, Zoom };

  void onStateChanged(unsigned changes);
  void onLabelChange(const LabelChange& change);
  void syncViewportSize();
  void updateSlider();
  void updateCornerText();
  void updateMarkers();
  void render();
  bool handleKey(int key);
  QPointF toDevice(const QPointF& logical) const;

  SliceOrientation orientation_;
  std::shared_ptr<ViewState> state_;
  int observerId_ = 0;
  std::unique_ptr<SliceScene> scene_;
  VtkOpenGLWidget* canvas_ = nullptr;
  QSlider* slider_ = nullptr;
  SliceScoreStrip* scoreStrip_ = nullptr;
  SliceViewport viewport_;
  bool fitted_ = true;  // zoom/pan follow the view size until the user zooms or pans
  int volumeFrame_ = -1;
  int labelFrame_ = -1;
  std::shared_ptr<LabelDisplayState> labelState_;
  int labelObserverId_ = 0;
  std::shared_ptr<MarkerState> markerState_;
  int markerObserverId_ = 0;
  QPointer<ToolEventRouter> router_;
  bool hasToolOutline_ = false;

  Drag drag_ = Drag::None;
  QPointF pressPos_;
  QPointF lastPos_;
  WindowLevel pressWindow_;
  double wheelRemainder_ = 0;
};

}  // namespace delineate::viewers
