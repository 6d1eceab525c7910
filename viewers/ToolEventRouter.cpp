#include "viewers/ToolEventRouter.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <cmath>
#include <vector>

#include "annotation/tools/Tool.h"
#include "viewers/SliceView.h"

namespace delineate::viewers {

namespace {

annotation::PointerButton buttonOf(Qt::MouseButton b) {
  switch (b) {
    case Qt::LeftButton:
      return annotation::PointerButton::Left;
    case Qt::MiddleButton:
      return annotation::PointerButton::Middle;
    case Qt::RightButton:
      return annotation::PointerButton::Right;
    default:
      return annotation::PointerButton::None;
  }
}

// A circle of `radius` mm around `centre` in the plane of `view`.
std::vector<core::Vec3> circle(const SliceView& view, const core::Vec3& centre, double radius) {
  const SliceAxes axes = sliceAxes(view.orientation());
  std::vector<core::Vec3> points(64);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double t = 2 * 3.14159265358979 * double(i) / double(points.size());
    for (int a = 0; a < 3; ++a) {
      points[i][a] = centre[a] + radius * (std::cos(t) * axes.right[a] + std::sin(t) * axes.up[a]);
    }
  }
  return points;
}

}  // namespace

ToolEventRouter::ToolEventRouter(QObject* parent) : QObject(parent) {}

ToolEventRouter::~ToolEventRouter() = default;

void ToolEventRouter::setTool(annotation::Tool* tool) {
  if (tool_ != nullptr && tool != tool_) {
    tool_->cancel();
  }
  tool_ = tool;
  activeView_ = nullptr;
  clearOutlines();
  if (hoverView_) {
    showOutline(hoverView_, hoverPos_);
  }
}

void ToolEventRouter::setEditGate(std::function<bool(const annotation::PointerEvent&)> gate) {
  gate_ = std::move(gate);
}

void ToolEventRouter::attach(SliceView* view) {
  if (!views_.contains(view)) {
    views_.append(view);
  }
}

void ToolEventRouter::detach(SliceView* view) {
  views_.removeAll(view);
}

annotation::PointerEvent ToolEventRouter::pointerEvent(const SliceView& view, const QMouseEvent& e,
                                                       annotation::PointerAction action) {
  annotation::PointerEvent p;
  p.action = action;
  p.button = action == annotation::PointerAction::Move
                 ? (e.buttons() & Qt::LeftButton ? annotation::PointerButton::Left
                                                 : annotation::PointerButton::None)
                 : buttonOf(e.button());
  p.shift = e.modifiers() & Qt::ShiftModifier;
  p.control = e.modifiers() & Qt::ControlModifier;
  p.alt = e.modifiers() & Qt::AltModifier;
  p.world = view.canvasToWorld(e.position());
  p.sliceNormal = sliceAxes(view.orientation()).normal;
  return p;
}

void ToolEventRouter::send(SliceView* view, const QMouseEvent& e,
                           annotation::PointerAction action) {
  const annotation::PointerEvent p = pointerEvent(*view, e, action);
  tool_->pointer(p);
  bool closed = false;
  const std::vector<core::Vec3> outline = tool_->drawnOutline(closed);
  view->setToolOutline(outline, closed);
  Q_EMIT toolUsed();
}

bool ToolEventRouter::handleEvent(SliceView* view, QEvent* event) {
  switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: {
      auto* e = static_cast<QMouseEvent*>(event);
      const bool ctrl = e->modifiers() & Qt::ControlModifier;
      if (e->button() == Qt::LeftButton && ctrl) {
        ctrlPress_ = true;  // a click picks a segment, a drag pans (the view's own)
        ctrlPressPos_ = e->position();
        return false;
      }
      ctrlPress_ = false;
      if (tool_ == nullptr || e->button() != Qt::LeftButton) {
        return false;
      }
      const annotation::PointerEvent p = pointerEvent(*view, *e, annotation::PointerAction::Press);
      if (gate_ && !gate_(p)) {
        Q_EMIT editRefused();
        return true;
      }
      if (!tool_->pointer(p)) {
        return false;
      }
      activeView_ = view;
      bool closed = false;
      const std::vector<core::Vec3> outline = tool_->drawnOutline(closed);
      view->setToolOutline(outline, closed);
      Q_EMIT toolUsed();
      return true;
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      showOutline(view, e->position());
      if (tool_ != nullptr && activeView_ == view) {
        send(view, *e, annotation::PointerAction::Move);
      }
      return false;  // the view still reports the value under the mouse
    }
    case QEvent::MouseButtonRelease: {
      auto* e = static_cast<QMouseEvent*>(event);
      if (ctrlPress_ && e->button() == Qt::LeftButton) {
        ctrlPress_ = false;
        const QPointF d = e->position() - ctrlPressPos_;
        if (std::abs(d.x()) + std::abs(d.y()) < 4) {
          Q_EMIT pickRequested(view->canvasToWorld(e->position()));
        }
        return false;
      }
      if (tool_ != nullptr && activeView_ == view && e->button() == Qt::LeftButton) {
        activeView_ = nullptr;
        send(view, *e, annotation::PointerAction::Release);
        return true;
      }
      return false;
    }
    case QEvent::Wheel: {
      auto* e = static_cast<QWheelEvent*>(event);
      if ((e->modifiers() & Qt::ControlModifier) && tool_ != nullptr && tool_->resizesWithWheel()) {
        Q_EMIT brushScaleRequested(std::pow(1.1, e->angleDelta().y() / 120.0));
        showOutline(view, e->position());
        return true;
      }
      return false;
    }
    case QEvent::Leave:
      view->setToolOutline({}, false);
      if (hoverView_ == view) {
        hoverView_ = nullptr;
      }
      return false;
    case QEvent::KeyPress:
      if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && tool_ != nullptr &&
          activeView_) {
        annotation::PointerEvent p;
        p.action = annotation::PointerAction::Cancel;
        tool_->pointer(p);
        activeView_->setToolOutline({}, false);
        activeView_ = nullptr;
        Q_EMIT toolUsed();
        return true;
      }
      return false;
    default:
      return false;
  }
}

void ToolEventRouter::showOutline(SliceView* view, const QPointF& position) {
  if (hoverView_ && hoverView_ != view) {
    hoverView_->setToolOutline({}, false);
  }
  hoverView_ = view;
  hoverPos_ = position;
  if (tool_ != nullptr && tool_->hoverRadiusMm() > 0) {
    view->setToolOutline(circle(*view, view->canvasToWorld(position), tool_->hoverRadiusMm()),
                         true);
  }
}

void ToolEventRouter::refreshOutline() {
  if (hoverView_) {
    showOutline(hoverView_, hoverPos_);
  }
}

void ToolEventRouter::clearOutlines() {
  for (const auto& v : views_) {
    if (v) {
      v->setToolOutline({}, false);
    }
  }
}

}  // namespace delineate::viewers
