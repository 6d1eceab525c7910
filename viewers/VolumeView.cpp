#include "viewers/VolumeView.h"

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "viewers/VolumeScene.h"
#include "viewers/VtkOpenGLWidget.h"

namespace delineate::viewers {

VolumeView::VolumeView(QWidget* parent) : QWidget(parent), scene_(std::make_unique<VolumeScene>()) {
  canvas_ = new VtkOpenGLWidget(this);
  canvas_->setObjectName(QStringLiteral("VolumeCanvas"));
  canvas_->renderWindow()->AddRenderer(scene_->renderer());
  canvas_->installEventFilter(this);
  connect(canvas_, &VtkOpenGLWidget::glInitialized, this, &VolumeView::onGlInitialized);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(canvas_);
  setFocusProxy(canvas_);

  settleTimer_ = new QTimer(this);
  settleTimer_->setSingleShot(true);
  settleTimer_->setInterval(300);
  connect(settleTimer_, &QTimer::timeout, this, [this] {
    if (drag_ == Drag::None) {
      setInteractive(false);
    }
  });
}

VolumeView::~VolumeView() = default;

void VolumeView::onGlInitialized() {
  if (scene_->hasMapper()) {
    return;
  }
  bool gpu = !canvas_->isSoftwareRenderer();
  if (const char* force = std::getenv("DELINEATE_VOLUME_MAPPER")) {
    if (std::strcmp(force, "cpu") == 0) {
      gpu = false;
    } else if (std::strcmp(force, "gpu") == 0) {
      gpu = true;
    }
  }
  scene_->createMapper(gpu);
  scene_->setInteractive(interactive_);
  volumeFrame_ = canvas_->renderedFrames();
  shownFrame_ = volumeFrame_;
}

bool VolumeView::shadingReducedForMemory() const {
  return scene_->shadingReducedForMemory();
}

bool VolumeView::usesGpuMapper() const {
  return scene_->usesGpu();
}
bool VolumeView::hasMapper() const {
  return scene_->hasMapper();
}

void VolumeView::setVolume(core::VolumePtr volume) {
  volume_ = std::move(volume);
  scene_->setVolume(volume_);
  if (volume_) {
    preset_ = defaultVolumePreset(*volume_);
    scene_->setStyle(volumeStyle(preset_, *volume_), toString(preset_));
  }
  volumeFrame_ = canvas_->renderedFrames();
  shownFrame_ = volumeFrame_;
  if (volume_) {
    // A new volume shows a coarse frame at once and full quality when the settle timer fires.
    setInteractive(true);
    settleTimer_->start();
  }
  canvas_->requestRender();
}

void VolumeView::setFrame(core::VolumePtr frame) {
  volume_ = std::move(frame);
  scene_->setFrame(volume_);
  canvas_->requestRender();
}

void VolumeView::setPreset(VolumePreset preset) {
  preset_ = preset;
  if (volume_) {
    scene_->setStyle(volumeStyle(preset_, *volume_), toString(preset_));
    canvas_->requestRender();
  }
}

void VolumeView::resetCamera() {
  scene_->resetCamera();
  canvas_->requestRender();
}

void VolumeView::setInteractive(bool interactive) {
  if (interactive_ == interactive) {
    return;
  }
  interactive_ = interactive;
  scene_->setInteractive(interactive);
  if (!interactive) {
    volumeFrame_ = canvas_->renderedFrames();  // "rendered" now means at full quality
  }
  canvas_->requestRender();
}

void VolumeView::setQuality(VolumeQuality quality) {
  if (quality == scene_->quality()) {
    return;
  }
  scene_->setQuality(quality);
  volumeFrame_ = canvas_->renderedFrames();  // the next frame is the one at the new quality
  canvas_->requestRender();
}

VolumeQuality VolumeView::quality() const {
  return scene_->quality();
}
double VolumeView::sampleDistance() const {
  return scene_->sampleDistance();
}
double VolumeView::imageSampleDistance() const {
  return scene_->imageSampleDistance();
}

bool VolumeView::hasRenderedVolume() const {
  return volume_ && scene_->hasMapper() && !interactive_ && volumeFrame_ >= 0 &&
         canvas_->renderedFrames() > volumeFrame_;
}

bool VolumeView::hasShownVolume() const {
  return volume_ && scene_->hasMapper() && shownFrame_ >= 0 &&
         canvas_->renderedFrames() > shownFrame_;
}

void VolumeView::setSurfaces(vtkSmartPointer<vtkPolyData> surfaces,
                             const core::ImageGeometry& geometry) {
  scene_->setSurfaces(std::move(surfaces), geometry);
  surfaceFrame_ = canvas_->renderedFrames();
  canvas_->requestRender();
}

void VolumeView::setSurfaceColors(const std::vector<LabelColor>& table) {
  scene_->setSurfaceColors(table);
  surfaceFrame_ = canvas_->renderedFrames();
  canvas_->requestRender();
}

void VolumeView::rotate(double azimuthDeg, double elevationDeg) {
  scene_->rotate(azimuthDeg, elevationDeg);
  canvas_->requestRender();
}

void VolumeView::setSurfaceDistanceRange(double rangeMm) {
  scene_->setSurfaceDistanceRange(rangeMm);
  surfaceFrame_ = canvas_->renderedFrames();
  canvas_->requestRender();
}

std::array<double, 3> VolumeView::distanceColor(double mm) const {
  return scene_->distanceColor(mm);
}

double VolumeView::surfaceDistanceRange() const {
  return scene_->surfaceDistanceRange();
}

bool VolumeView::hasSurfaces() const {
  return scene_->hasSurfaces();
}

void VolumeView::setVolumeVisible(bool visible) {
  scene_->setVolumeVisible(visible);
  surfaceFrame_ = canvas_->renderedFrames();
  canvas_->requestRender();
}

void VolumeView::setSurfacesVisible(bool visible) {
  scene_->setSurfacesVisible(visible);
  surfaceFrame_ = canvas_->renderedFrames();
  canvas_->requestRender();
}

bool VolumeView::volumeVisible() const {
  return scene_->volumeVisible();
}

bool VolumeView::surfacesVisible() const {
  return scene_->surfacesVisible();
}

bool VolumeView::hasRenderedSurfaces() const {
  return surfaceFrame_ < 0 || canvas_->renderedFrames() > surfaceFrame_;
}

QPointF VolumeView::worldToCanvas(const core::Vec3& world) const {
  const auto d = scene_->worldToDisplay(world);
  const double dpr = canvas_->devicePixelRatioF();
  const double heightPx = canvas_->height() * dpr;
  return QPointF(d[0] / dpr, (heightPx - d[1]) / dpr);
}

bool VolumeView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != canvas_) {
    return QWidget::eventFilter(watched, event);
  }
  switch (event->type()) {
    case QEvent::MouseButtonPress: {
      auto* e = static_cast<QMouseEvent*>(event);
      lastPos_ = e->position();
      const bool ctrl = e->modifiers() & Qt::ControlModifier;
      drag_ = e->button() == Qt::LeftButton     ? (ctrl ? Drag::Pan : Drag::Rotate)
              : e->button() == Qt::RightButton  ? Drag::Zoom
              : e->button() == Qt::MiddleButton ? Drag::Pan
                                                : Drag::None;
      if (drag_ != Drag::None) {
        setInteractive(true);
      }
      return true;
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPointF d = e->position() - lastPos_;
      lastPos_ = e->position();
      const double h = std::max(1, canvas_->height());
      switch (drag_) {
        case Drag::Rotate:
          scene_->rotate(-d.x() * 0.4, d.y() * 0.4);
          break;
        case Drag::Zoom:
          scene_->zoom(std::exp(-d.y() * 0.01));
          break;
        case Drag::Pan:
          scene_->pan(d.x() / h, d.y() / h);
          break;
        case Drag::None:
          return true;
      }
      canvas_->requestRender();
      return true;
    }
    case QEvent::MouseButtonRelease:
      drag_ = Drag::None;
      setInteractive(false);
      return true;
    case QEvent::Wheel: {
      auto* e = static_cast<QWheelEvent*>(event);
      setInteractive(true);
      scene_->zoom(std::pow(1.1, e->angleDelta().y() / 120.0));
      canvas_->requestRender();
      settleTimer_->start();
      return true;
    }
    case QEvent::KeyPress:
      if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_R) {
        resetCamera();
        return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace delineate::viewers
