#include "viewers/SliceView.h"

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include <QCursor>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QWheelEvent>
#include <cmath>
#include <cstdio>

#include "viewers/LabelSliceLayer.h"
#include "viewers/SliceScene.h"
#include "viewers/SliceScoreStrip.h"
#include "viewers/ToolEventRouter.h"
#include "viewers/VtkOpenGLWidget.h"

namespace delineate::viewers {

SliceView::SliceView(SliceOrientation orientation, std::shared_ptr<ViewState> state,
                     QWidget* parent)
    : QWidget(parent),
      orientation_(orientation),
      state_(std::move(state)),
      scene_(std::make_unique<SliceScene>(orientation)) {
  canvas_ = new VtkOpenGLWidget(this);
  canvas_->setObjectName(QString::fromLatin1(toString(orientation)) + QLatin1String("Canvas"));
  canvas_->renderWindow()->AddRenderer(scene_->renderer());
  canvas_->installEventFilter(this);
  canvas_->setCursor(Qt::CrossCursor);

  slider_ = new QSlider(Qt::Vertical, this);
  slider_->setToolTip(tr("Slice"));
  slider_->setFocusPolicy(Qt::NoFocus);
  slider_->setEnabled(false);
  connect(slider_, &QSlider::valueChanged, this, [this](int value) { setSliceIndex(value); });

  scoreStrip_ = new SliceScoreStrip(slider_, this);
  scoreStrip_->setObjectName(QString::fromLatin1(toString(orientation)) + QLatin1String("Scores"));
  connect(scoreStrip_, &SliceScoreStrip::sliceClicked, this, &SliceView::setSliceIndex);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(canvas_, 1);
  layout->addWidget(scoreStrip_);
  layout->addWidget(slider_);
  setFocusProxy(canvas_);

  observerId_ = state_->addObserver([this](unsigned changes) { onStateChanged(changes); });
  if (state_->volume()) {
    onStateChanged(ViewState::VolumeChanged | ViewState::CursorChanged | ViewState::WindowChanged);
  }
}

SliceView::~SliceView() {
  state_->removeObserver(observerId_);
  if (labelState_) {
    labelState_->removeObserver(labelObserverId_);
  }
  if (markerState_) {
    markerState_->removeObserver(markerObserverId_);
  }
  if (router_) {
    router_->detach(this);
  }
}

void SliceView::setLabelState(std::shared_ptr<LabelDisplayState> state) {
  if (labelState_) {
    labelState_->removeObserver(labelObserverId_);
  }
  labelState_ = std::move(state);
  if (labelState_) {
    labelObserverId_ = labelState_->addObserver([this](const LabelChange& c) { onLabelChange(c); });
    onLabelChange({LabelChange::Maps, nullptr, {}});
  }
}

void SliceView::onLabelChange(const LabelChange& change) {
  bool redraw = false;
  switch (change.kind) {
    case LabelChange::Maps:
    case LabelChange::Display:
      if (change.kind == LabelChange::Maps) {
        scene_->setLabelMaps(labelState_->labelMaps());
      }
      for (const auto& map : labelState_->labelMaps()) {
        scene_->setLabelColors(map.get(), labelState_->colorTable(*map));
      }
      redraw = true;
      break;
    case LabelChange::Segments:
      scene_->setLabelColors(change.map, labelState_->colorTable(*change.map));
      redraw = true;
      break;
    case LabelChange::Voxels:
      redraw = scene_->labelVoxelsChanged(change.map, change.box);
      break;
  }
  if (redraw) {
    labelFrame_ = canvas_->renderedFrames();
    render();
  }
}

bool SliceView::hasRenderedLabels() const {
  return labelFrame_ < 0 || canvas_->renderedFrames() > labelFrame_;
}

void SliceView::setToolRouter(ToolEventRouter* router) {
  if (router_) {
    router_->detach(this);
  }
  router_ = router;
  if (router_) {
    router_->attach(this);
  }
}

void SliceView::setToolOutline(const std::vector<core::Vec3>& world, bool closed) {
  if (world.empty() && !hasToolOutline_) {
    return;  // nothing shown, nothing to clear (no render)
  }
  hasToolOutline_ = !world.empty();
  const SliceAxes axes = sliceAxes(orientation_);
  std::vector<std::array<double, 2>> plane;
  plane.reserve(world.size());
  for (const core::Vec3& p : world) {
    plane.push_back({core::dot(p, axes.right), core::dot(p, axes.up)});
  }
  scene_->setToolOutline(plane, closed);
  render();
}

void SliceView::setMarkerState(std::shared_ptr<MarkerState> markers) {
  if (markerState_) {
    markerState_->removeObserver(markerObserverId_);
  }
  markerState_ = std::move(markers);
  if (markerState_) {
    markerObserverId_ = markerState_->addObserver([this] {
      updateMarkers();
      render();
    });
  }
  updateMarkers();
}

std::size_t SliceView::shownMarkers() const {
  return scene_->markerCount();
}

void SliceView::updateMarkers() {
  std::vector<SliceScene::PlaneMarker> shown;
  const core::VolumePtr& volume = state_->volume();
  if (markerState_ && volume) {
    const SliceAxes axes = sliceAxes(orientation_);
    // Half the voxel size along the normal: a marker belongs to the slice it was placed on.
    const core::ImageGeometry& g = volume->geometry();
    double thickness = 0;
    for (int a = 0; a < 3; ++a) {
      thickness = std::max(thickness, std::abs(core::dot(g.axis(a), axes.normal)) * g.spacing[a]);
    }
    const core::Vec3 cursor = state_->cursor();
    const double radius = std::max(1.0, 7 * viewport_.mmPerPixel());
    for (const Marker& m : markerState_->markers()) {
      const core::Vec3 d{m.world[0] - cursor[0], m.world[1] - cursor[1], m.world[2] - cursor[2]};
      if (std::abs(core::dot(d, axes.normal)) > thickness / 2 + 1e-6) {
        continue;
      }
      SliceScene::PlaneMarker p;
      p.at = {core::dot(m.world, axes.right), core::dot(m.world, axes.up)};
      p.radius = radius;
      p.cross = m.kind == Marker::Positive;
      for (const core::Vec3& o : m.outline) {
        p.outline.push_back({core::dot(o, axes.right), core::dot(o, axes.up)});
      }
      p.closed = m.closed;
      p.rgb = m.kind == Marker::Positive   ? std::array<unsigned char, 3>{60, 230, 90}
              : m.kind == Marker::Negative ? std::array<unsigned char, 3>{240, 60, 60}
                                           : std::array<unsigned char, 3>{250, 220, 40};
      shown.push_back(p);
    }
  }
  scene_->setMarkers(shown);
}

std::size_t SliceView::labelUploadedBytes() const {
  return scene_->labelUploadedBytes();
}

std::uint16_t SliceView::labelAt(const core::LabelMap* map, const QPointF& position) const {
  const LabelSliceLayer* layer = scene_->labelLayer(map);
  if (layer == nullptr) {
    return 0;
  }
  const SliceAxes axes = sliceAxes(orientation_);
  const core::Vec3 w = canvasToWorld(position);
  const SliceGrid& g = scene_->grid();
  const long x = std::lround((core::dot(w, axes.right) - g.u0) / g.du);
  const long y = std::lround((core::dot(w, axes.up) - g.v0) / g.dv);
  return layer->labelAt(static_cast<int>(x), static_cast<int>(y));
}

int SliceView::sliceCount() const {
  return state_->volume() ? viewers::sliceCount(state_->volume()->geometry(), orientation_) : 0;
}

int SliceView::sliceIndex() const {
  return state_->volume()
             ? viewers::sliceIndex(state_->volume()->geometry(), orientation_, state_->cursor())
             : 0;
}

void SliceView::setSliceIndex(int index) {
  if (!state_->volume()) {
    return;
  }
  state_->setCursor(
      moveToSlice(state_->volume()->geometry(), orientation_, state_->cursor(), index));
}

void SliceView::stepSlices(int delta) {
  setSliceIndex(sliceIndex() + delta);
}

void SliceView::resetView() {
  fitted_ = true;
  syncViewportSize();
  render();
}

void SliceView::zoomBy(double factor) {
  viewport_.zoomAbout(viewport_.viewWidth() / 2, viewport_.viewHeight() / 2, factor);
  fitted_ = false;
  scene_->setViewport(viewport_);
  render();
}

QPointF SliceView::toDevice(const QPointF& logical) const {
  return logical * canvas_->devicePixelRatioF();
}

QPointF SliceView::worldToCanvas(const core::Vec3& world) const {
  const SliceAxes axes = sliceAxes(orientation_);
  const auto d = viewport_.planeToDisplay(core::dot(world, axes.right), core::dot(world, axes.up));
  return QPointF(d[0], d[1]) / canvas_->devicePixelRatioF();
}

core::Vec3 SliceView::canvasToWorld(const QPointF& position) const {
  const SliceAxes axes = sliceAxes(orientation_);
  const QPointF d = toDevice(position);
  const auto p = viewport_.displayToPlane(d.x(), d.y());
  const double s = core::dot(state_->cursor(), axes.normal);
  core::Vec3 w{};
  for (int a = 0; a < 3; ++a) {
    w[a] = p[0] * axes.right[a] + p[1] * axes.up[a] + s * axes.normal[a];
  }
  return w;
}

PointerInfo SliceView::probe(const QPointF& position) const {
  PointerInfo info;
  info.world = canvasToWorld(position);
  const auto& volume = state_->volume();
  if (volume && containsVoxel(volume->geometry(), info.world)) {
    info.inside = true;
    info.voxel = nearestVoxel(volume->geometry(), info.world);
    const auto i = static_cast<std::size_t>(info.voxel[0]);
    const auto j = static_cast<std::size_t>(info.voxel[1]);
    const auto k = static_cast<std::size_t>(info.voxel[2]);
    info.value = volume->valueAt(i, j, k);
    info.colour = volume->hasColour();
    if (info.colour) {
      info.rgb = volume->colourAt(i, j, k);
    }
  }
  return info;
}

bool SliceView::showsOrientationLetters() const {
  return scene_->orientationLettersShown();
}

bool SliceView::hasRenderedVolume() const {
  return state_->volume() && volumeFrame_ >= 0 && canvas_->renderedFrames() > volumeFrame_;
}

void SliceView::onStateChanged(unsigned changes) {
  if (changes & ViewState::VolumeChanged) {
    scene_->setVolume(state_->volume());
    volumeFrame_ = canvas_->renderedFrames();
    fitted_ = true;
    syncViewportSize();
    slider_->setEnabled(state_->volume() != nullptr);
  }
  if (changes & ViewState::FrameChanged) {
    scene_->setVolume(state_->volume());  // same grid: the viewport and the slice stay
    scene_->setCursor(state_->cursor());
    scene_->setWindowLevel(state_->windowLevel());
    volumeFrame_ = canvas_->renderedFrames();
    if (canvas_->underMouse()) {
      // The value under the pointer is the new frame's.
      Q_EMIT pointerMoved(probe(canvas_->mapFromGlobal(QCursor::pos())));
    }
  }
  if (changes & ViewState::CursorChanged) {
    scene_->setCursor(state_->cursor());
    updateSlider();
    updateMarkers();
  }
  if (changes & ViewState::WindowChanged) {
    scene_->setWindowLevel(state_->windowLevel());
  }
  updateCornerText();
  render();
}

void SliceView::syncViewportSize() {
  const double dpr = canvas_->devicePixelRatioF();
  viewport_.setViewSize(std::max(1, canvas_->width()) * dpr, std::max(1, canvas_->height()) * dpr);
  if (fitted_ && state_->volume()) {
    viewport_.fit(screenBounds(state_->volume()->geometry(), orientation_));
  }
  scene_->setViewport(viewport_);
}

void SliceView::setSliceScores(std::vector<double> scores, const QString& name) {
  scoreStrip_->setScores(std::move(scores), name);
}

void SliceView::updateSlider() {
  const QSignalBlocker block(slider_);
  slider_->setRange(0, std::max(0, sliceCount() - 1));
  slider_->setValue(sliceIndex());
}

void SliceView::updateCornerText() {
  if (!state_->volume()) {
    scene_->setCornerText(toString(orientation_), "");
    return;
  }
  const SliceAxes axes = sliceAxes(orientation_);
  const double s = core::dot(state_->cursor(), axes.normal);
  const char letter = core::patientDirectionLetter(
      s >= 0 ? axes.normal : core::Vec3{-axes.normal[0], -axes.normal[1], -axes.normal[2]});
  // Short top-left label so it never meets the top orientation letter in narrow views; slice
  // position and window in the bottom-left corner.
  char bottom[160];
  const WindowLevel& wl = state_->windowLevel();
  std::snprintf(bottom, sizeof bottom, "%d/%d  %c %.1f mm\nW %.0f  L %.0f", sliceIndex() + 1,
                sliceCount(), letter, std::abs(s), wl.width, wl.center);
  const char* top = toString(orientation_);
  scene_->setCornerText(top, bottom);
}

void SliceView::render() {
  canvas_->requestRender();
}

bool SliceView::handleKey(int key) {
  switch (key) {
    case Qt::Key_Up:
    case Qt::Key_Right:
      stepSlices(1);
      return true;
    case Qt::Key_Down:
    case Qt::Key_Left:
      stepSlices(-1);
      return true;
    case Qt::Key_PageUp:
      stepSlices(10);
      return true;
    case Qt::Key_PageDown:
      stepSlices(-10);
      return true;
    case Qt::Key_Home:
      setSliceIndex(0);
      return true;
    case Qt::Key_End:
      setSliceIndex(sliceCount() - 1);
      return true;
    case Qt::Key_R:
      resetView();
      return true;
    default:
      return false;
  }
}

bool SliceView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != canvas_) {
    return QWidget::eventFilter(watched, event);
  }
  if (router_ && state_->volume() && router_->handleEvent(this, event)) {
    return true;
  }
  switch (event->type()) {
    case QEvent::Resize:
      syncViewportSize();
      return false;
    case QEvent::MouseButtonPress: {
      auto* e = static_cast<QMouseEvent*>(event);
      pressPos_ = lastPos_ = e->position();
      const bool shift = e->modifiers() & Qt::ShiftModifier;
      const bool ctrl = e->modifiers() & Qt::ControlModifier;
      if (e->button() == Qt::LeftButton) {
        drag_ = shift ? Drag::WindowLevel : ctrl ? Drag::Pan : Drag::Cursor;
      } else if (e->button() == Qt::MiddleButton) {
        drag_ = Drag::Pan;
      } else if (e->button() == Qt::RightButton) {
        drag_ = Drag::Zoom;
      }
      pressWindow_ = state_->windowLevel();
      if (drag_ == Drag::Cursor && state_->volume()) {
        state_->setCursor(canvasToWorld(e->position()));
      }
      return true;
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPointF pos = e->position();
      const QPointF delta = toDevice(pos - lastPos_);
      switch (drag_) {
        case Drag::Cursor:
          if (state_->volume()) {
            state_->setCursor(canvasToWorld(pos));
          }
          break;
        case Drag::WindowLevel: {
          const QPointF total = toDevice(pos - pressPos_);
          state_->setWindowLevel(dragWindowLevel(pressWindow_, total.x(), total.y()));
          break;
        }
        case Drag::Pan:
          viewport_.panBy(delta.x(), delta.y());
          fitted_ = false;
          scene_->setViewport(viewport_);
          render();
          break;
        case Drag::Zoom: {
          const QPointF press = toDevice(pressPos_);
          viewport_.zoomAbout(press.x(), press.y(), std::exp(-delta.y() * 0.01));
          fitted_ = false;
          scene_->setViewport(viewport_);
          render();
          break;
        }
        case Drag::None:
          break;
      }
      lastPos_ = pos;
      Q_EMIT pointerMoved(probe(pos));
      return true;
    }
    case QEvent::MouseButtonRelease:
      drag_ = Drag::None;
      return true;
    case QEvent::MouseButtonDblClick:
      if (static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton) {
        Q_EMIT maximizeRequested();
      }
      return true;
    case QEvent::Wheel: {
      auto* e = static_cast<QWheelEvent*>(event);
      const double steps = e->angleDelta().y() / 120.0 + wheelRemainder_;
      if (e->modifiers() & Qt::ControlModifier) {
        wheelRemainder_ = 0;
        const QPointF at = toDevice(e->position());
        viewport_.zoomAbout(at.x(), at.y(), std::pow(1.15, steps));
        fitted_ = false;
        scene_->setViewport(viewport_);
        render();
      } else {
        const int whole = static_cast<int>(steps);
        wheelRemainder_ = steps - whole;
        if (whole != 0) {
          stepSlices(whole);
        }
      }
      Q_EMIT pointerMoved(probe(e->position()));
      return true;
    }
    case QEvent::KeyPress:
      return handleKey(static_cast<QKeyEvent*>(event)->key());
    default:
      return false;
  }
}

}  // namespace delineate::viewers
