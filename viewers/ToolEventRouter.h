#pragma once
// Turns the Qt mouse, wheel and key events of slice views into Qt-free annotation::PointerEvents
// (world position on the view's slice plane + the plane's normal) for the active tool. A view
// hands every event to the router first and navigates (cursor, window/level, zoom, pan, slices)
// only with the events the tool did not use (ITK-SNAP's interaction-mode / model split).
//
//   left press / drag / release   the tool (brush, eraser, region grow, lasso, scissors)
//   Ctrl + left click             asks for the segment under the mouse (pickRequested); Ctrl +
//                                 left drag still pans
//   Ctrl + wheel                  brush size (brushScaleRequested) while a brush is active
//   Escape                        abandons the stroke or outline being drawn
//   middle, right, plain wheel    navigation, whatever the tool
// With a brush or eraser active, each view under the mouse draws a circle of the real brush
// radius; the lasso and scissors show their outline while drawing.
#include <QList>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <functional>

#include "annotation/tools/PointerEvent.h"
#include "core/model/ImageGeometry.h"
#include "viewers/SliceView.h"

class QEvent;
class QMouseEvent;

namespace delineate::annotation {
class Tool;
}

namespace delineate::viewers {

class ToolEventRouter : public QObject {
  Q_OBJECT

 public:
  explicit ToolEventRouter(QObject* parent = nullptr);
  ~ToolEventRouter() override;

  // nullptr: navigation only. Abandons what the previous tool was drawing.
  void setTool(annotation::Tool* tool);
  annotation::Tool* tool() const { return tool_; }

  // Asked before a press reaches the tool; returning false refuses the edit (the press is
  // eaten and editRefused() emitted), e.g. while a job holds the label map.
  void setEditGate(std::function<bool(const annotation::PointerEvent&)> gate);

  // Views call these from SliceView::setToolRouter / their destructor.
  void attach(SliceView* view);
  void detach(SliceView* view);

  // Returns true when the tool used the event (the view must then ignore it).
  bool handleEvent(SliceView* view, QEvent* event);

  // The pointer event a mouse event of `view` stands for.
  static annotation::PointerEvent pointerEvent(const SliceView& view, const QMouseEvent& event,
                                               annotation::PointerAction action);

  // Redraws the brush circle (after the radius changed).
  void refreshOutline();
  // True while a press of the active tool has not been released.
  bool toolActive() const { return activeView_ != nullptr; }

 Q_SIGNALS:
  // The tool used an event: the app delivers the document's changes (repaint).
  void toolUsed();
  void editRefused();
  void pickRequested(const delineate::core::Vec3& world);
  void brushScaleRequested(double factor);

 private:
  void send(SliceView* view, const QMouseEvent& event, annotation::PointerAction action);
  void showOutline(SliceView* view, const QPointF& position);
  void clearOutlines();

  annotation::Tool* tool_ = nullptr;
  std::function<bool(const annotation::PointerEvent&)> gate_;
  QList<QPointer<SliceView>> views_;
  QPointer<SliceView> activeView_;  // the view a press of the tool started in
  QPointer<SliceView> hoverView_;
  QPointF hoverPos_;
  bool ctrlPress_ = false;
  QPointF ctrlPressPos_;
};

}  // namespace delineate::viewers
