#include "viewers/mammo/MammoViewport.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/PyramidDisplayTable.h"
#include "core/mammo/PyramidRenderer.h"
#include "core/mammo/TomoSlab.h"
#include "viewers/mammo/MammoOverlays.h"

namespace delineate::viewers {

namespace cm = core::mammo;

namespace {

constexpr int kLoupeRadius = 90;

}  // namespace

MammoViewport::MammoViewport(MammoReadingState* state, QWidget* parent)
    : QWidget(parent), state_(state) {
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(120, 120);
  setFocusPolicy(Qt::ClickFocus);
  connect(state_, &MammoReadingState::viewChanged, this, qOverload<>(&QWidget::update));
  connect(state_, &MammoReadingState::displayChanged, this, [this] {
    tableValid_ = false;
    update();
  });
  connect(state_, &MammoReadingState::findingsDisplayChanged, this, [this] {
    heatmapValid_ = false;
    update();
  });
  connect(state_, &MammoReadingState::slabChanged, this, [this] {
    if (stack_) {
      showFrame();
    }
  });
}

void MammoViewport::setImage(std::optional<MammoImage> image) {
  image_ = std::move(image);
  stack_.reset();
  stackFrame_ = 0;
  if (image_ && image_->pyramid) {
    stackFrame_ = static_cast<int>(image_->pyramid->frame());
    slabShown_ = {stackFrame_, stackFrame_};
    if (image_->frames > 1) {
      stack_ = image_->pyramid->volume();
      if (state_->slabMode() != cm::SlabMode::Off) {
        showFrame();
      }
    }
  }
  tableValid_ = false;
  heatmapValid_ = false;
  findings_ = nullptr;
  measures_.clear();
  update();
}

void MammoViewport::setPyramid(cm::PyramidPtr pyramid) {
  if (stack_ && pyramid &&
      (static_cast<int>(pyramid->frame()) != stackFrame_ ||
       state_->slabMode() != cm::SlabMode::Off)) {
    // A stack scrolled while it loaded keeps the frame it shows now; a slab is made from it.
    stack_ = pyramid->volume();
    showFrame();
    return;
  }
  if (image_ && pyramid && (!image_->pyramid || image_->pyramid->frame() == pyramid->frame())) {
    image_->pyramid = std::move(pyramid);
    tableValid_ = false;  // the same indices, but cheap to be sure
    update();
  }
}

int MammoViewport::frame() const {
  return stack_ ? stackFrame_ : 0;
}

int MammoViewport::frameCount() const {
  return image_ ? static_cast<int>(image_->frames) : 0;
}

void MammoViewport::setFrame(int frame) {
  if (!image_ || !stack_) {
    return;
  }
  const int clamped = std::clamp(frame, 0, frameCount() - 1);
  if (clamped == stackFrame_) {
    return;
  }
  stackFrame_ = clamped;
  showFrame();
}

void MammoViewport::showFrame() {
  // One frame of a stack is a few million pixels at most: its levels, and a slab of a few
  // frames, take milliseconds.
  const auto frames = stack_->geometry().size[2];
  const auto at = static_cast<std::size_t>(stackFrame_);
  std::shared_ptr<cm::ImagePyramid> pyramid;
  if (state_->slabMode() == cm::SlabMode::Off) {
    pyramid = cm::ImagePyramid::create(stack_, at);
    slabShown_ = {stackFrame_, stackFrame_};
  } else {
    const auto [first, last] =
        cm::slabFrames(at, frames, stack_->geometry().spacing[2], state_->slabMm());
    pyramid = cm::ImagePyramid::create(cm::slabOf(*stack_, first, last, state_->slabMode()), 0);
    slabShown_ = {static_cast<int>(first), static_cast<int>(last)};
  }
  core::NullProgress quiet;
  pyramid->buildLevels(quiet);
  image_->pyramid = std::move(pyramid);
  tableValid_ = false;
  update();
}

void MammoViewport::setWantedWall(cm::ChestWall wall) {
  wanted_ = wall;
  update();
}

void MammoViewport::setEmptyText(const QString& text) {
  emptyText_ = text;
  update();
}

void MammoViewport::setFindings(const cm::ImageFindings* findings, int currentMark) {
  findings_ = findings;
  currentMark_ = currentMark;
  heatmapValid_ = false;
  update();
}

void MammoViewport::clearMeasurements() {
  measures_.clear();
  Q_EMIT measurementsChanged();
  update();
}

void MammoViewport::removeLastMeasurement() {
  if (!measures_.empty()) {
    measures_.pop_back();
    Q_EMIT measurementsChanged();
    update();
  }
}

cm::ViewTransform MammoViewport::transform() const {
  if (!image_) {
    return {};
  }
  return cm::placeImage(image_->placed, wanted_, state_->zoom(), width(), height());
}

QPointF MammoViewport::widgetPoint(double column, double row) const {
  const auto p = transform().toScreen(column, row, width(), height());
  return {p[0], p[1]};
}

cm::DisplaySettings MammoViewport::displaySettings() const {
  cm::DisplaySettings s;
  if (image_ && image_->pyramid) {
    s = cm::defaultDisplaySettings(*image_->pyramid->volume());
  }
  if (const auto& w = state_->window()) {
    s.center = w->center;
    s.width = w->width;
    s.voiLut = w->voiLut;
  }
  s.invert = state_->inverted();
  return s;
}

bool MammoViewport::showsFullQuality() const {
  return image_ && image_->pyramid && image_->pyramid->complete();
}

QString MammoViewport::windowText() const {
  const cm::DisplaySettings s = displaySettings();
  QString text;
  if (s.voiLut >= 0 && image_ && image_->pyramid) {
    const auto& luts = image_->pyramid->volume()->info().voiLuts;
    text = s.voiLut < static_cast<int>(luts.size())
               ? QStringLiteral("VOI LUT %1").arg(QString::fromStdString(luts[s.voiLut].name))
               : QStringLiteral("VOI LUT");
  } else {
    text = QStringLiteral("W %1 L %2").arg(s.width, 0, 'f', 0).arg(s.center, 0, 'f', 0);
  }
  if (s.invert) {
    text += QStringLiteral(" inverted");
  }
  return text;
}

const std::vector<std::uint8_t>& MammoViewport::table() {
  if (!tableValid_ && image_ && image_->pyramid) {
    table_ = cm::pyramidDisplayTable(*image_->pyramid, displaySettings());
    tableValid_ = true;
  }
  return table_;
}

double MammoViewport::pixelsPerMm() const {
  if (!image_) {
    return 1.0;
  }
  return state_->zoom().pixelsPerMm.value_or(cm::fitPixelsPerMm(image_->placed, width(), height()));
}

std::array<double, 2> MammoViewport::imageAt(QPointF widget) const {
  return transform().toImage(widget.x(), widget.y(), width(), height());
}

std::array<double, 2> MammoViewport::mmAt(QPointF widget) const {
  const auto p = imageAt(widget);
  return cm::chestWallMm(image_->placed, p[0], p[1]);
}

void MammoViewport::paintEvent(QPaintEvent*) {
  QPainter p(this);
  if (!image_ || !image_->pyramid) {
    p.fillRect(rect(), QColor(24, 24, 24));
    p.setPen(QColor(230, 200, 120));
    p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, emptyText_);
    return;
  }
  if (frame_.size() != size()) {
    frame_ = QImage(size(), QImage::Format_Grayscale8);
  }
  const cm::ViewTransform t = transform();
  cm::renderPyramid(*image_->pyramid, table().data(), t,
                    {frame_.bits(), frame_.width(), frame_.height(), frame_.bytesPerLine()},
                    state_->inverted() ? 255 : 0);
  p.drawImage(0, 0, frame_);

  const QTransform toWidget = imageToWidget(t, width(), height());
  if (findings_ != nullptr) {
    if (findings_->heatmap && state_->heatmapShown()) {
      if (!heatmapValid_) {
        heatmap_ =
            heatmapImage(*findings_->heatmap, state_->heatmapThreshold(), state_->heatmapOpacity());
        heatmapValid_ = true;
      }
      drawHeatmap(p, toWidget, *findings_->heatmap, heatmap_);
    }
    if (state_->marksShown()) {
      drawMarks(p, toWidget, findings_->marks, currentMark_, rect(), state_->optionalMarksShown(),
                stack_ ? std::optional(slabShown_) : std::nullopt);
    }
  }
  drawMeasurements(p, toWidget, measures_, *image_);
  if (state_->loupe()) {
    drawLoupe(p);
  }
  const double oneToOne = 1.0 / image_->placed.spacing;
  const double ppm = pixelsPerMm();
  const QString zoom = std::abs(ppm - oneToOne) < 1e-6 * oneToOne
                           ? QStringLiteral("1:1")
                           : QStringLiteral("%1%").arg(100.0 * ppm / oneToOne, 0, 'f', 0);
  MammoImage shown = *image_;
  if (stack_) {
    shown.subtitle += QStringLiteral(" · frame %1/%2").arg(frame() + 1).arg(image_->frames);
    if (state_->slabMode() != cm::SlabMode::Off) {
      shown.subtitle +=
          QStringLiteral(" · %1 slab %2 mm (%3–%4)")
              .arg(state_->slabMode() == cm::SlabMode::Maximum ? QStringLiteral("MIP")
                                                               : QStringLiteral("average"))
              .arg(state_->slabMm(), 0, 'f', 1)
              .arg(slabShown_.first + 1)
              .arg(slabShown_.second + 1);
    }
    drawDepth(p);
  }
  drawCaption(p, rect(), shown, wanted_ == cm::ChestWall::Left, zoom, windowText(),
              !showsFullQuality());
}

void MammoViewport::drawDepth(QPainter& p) {
  // A track along the side away from the chest wall, 40 % of the height, the slab as a band and
  // the frame as a tick: the first frame at the top.
  const bool wallLeft = wanted_ == cm::ChestWall::Left;
  const int x = wallLeft ? width() - 14 : 8;
  const int top = height() * 3 / 10, length = height() * 4 / 10;
  const int n = std::max(1, frameCount() - 1);
  auto y = [&](double f) { return top + static_cast<int>(std::lround(length * f / n)); };
  p.save();
  p.setPen(QPen(QColor(160, 160, 160), 1));
  p.drawLine(x + 3, top, x + 3, top + length);
  p.fillRect(
      QRect(x, y(slabShown_.first), 7, std::max(2, y(slabShown_.second) - y(slabShown_.first))),
      QColor(255, 200, 0, 150));
  p.setPen(QPen(QColor(255, 200, 0), 2));
  p.drawLine(x - 2, y(stackFrame_), x + 9, y(stackFrame_));
  p.restore();
}

void MammoViewport::drawLoupe(QPainter& p) {
  const auto [depth, heightMm] = *state_->loupe();
  const auto at = cm::imagePoint(image_->placed, depth, heightMm);
  const QPointF centre = widgetPoint(at[0], at[1]);
  const int size = 2 * kLoupeRadius;
  QImage lens(size, size, QImage::Format_Grayscale8);
  cm::ViewTransform t = transform();
  t.scale = state_->loupeMagnification();
  t.centerColumn = at[0];
  t.centerRow = at[1];
  cm::renderPyramid(*image_->pyramid, table().data(), t,
                    {lens.bits(), lens.width(), lens.height(), lens.bytesPerLine()},
                    state_->inverted() ? 255 : 0);
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  const QRectF circle(centre.x() - kLoupeRadius, centre.y() - kLoupeRadius, size, size);
  QPainterPath clip;
  clip.addEllipse(circle);
  p.setClipPath(clip);
  p.drawImage(circle.topLeft(), lens);
  p.setClipping(false);
  p.setPen(QPen(QColor(255, 210, 80), 2));
  p.drawEllipse(circle);
  p.drawText(circle.adjusted(0, 0, 0, 16), Qt::AlignHCenter | Qt::AlignBottom,
             QStringLiteral("×%1").arg(state_->loupeMagnification(), 0, 'g', 2));
  p.restore();
}

void MammoViewport::zoomAbout(QPointF widget, double factor) {
  if (!image_) {
    return;
  }
  const double old = pixelsPerMm();
  const double next = std::clamp(old * factor, 0.05, 400.0);
  const auto [depth, heightMm] = mmAt(widget);
  // Keep the point under the pointer: the centre moves by the pointer's offset at the new scale.
  const double towardsDepth = wanted_ == cm::ChestWall::Left ? 1.0 : -1.0;
  cm::LinkedZoom z;
  z.pixelsPerMm = next;
  z.depthMm = depth - towardsDepth * (widget.x() - width() / 2.0) / next;
  z.heightMm = heightMm - (widget.y() - height() / 2.0) / next;
  state_->setZoom(z);
}

void MammoViewport::panBy(QPointF delta) {
  if (!image_) {
    return;
  }
  const double ppm = pixelsPerMm();
  const auto [depth, heightMm] = mmAt(QPointF(width() / 2.0, height() / 2.0));
  const double towardsDepth = wanted_ == cm::ChestWall::Left ? 1.0 : -1.0;
  cm::LinkedZoom z;
  z.pixelsPerMm = ppm;
  z.depthMm = depth - towardsDepth * delta.x() / ppm;
  z.heightMm = heightMm - delta.y() / ppm;
  state_->setZoom(z);
}

void MammoViewport::mousePressEvent(QMouseEvent* event) {
  if (!image_) {
    return;
  }
  dragStart_ = dragLast_ = event->position();
  const MammoTool tool = state_->tool();
  if (event->button() == Qt::RightButton ||
      (event->button() == Qt::LeftButton && tool == MammoTool::WindowLevel)) {
    drag_ = Drag::Window;
    dragWindow_ = displaySettings();
  } else if (event->button() == Qt::MiddleButton ||
             (event->button() == Qt::LeftButton && tool == MammoTool::Pan)) {
    drag_ = Drag::Pan;
  } else if (event->button() == Qt::LeftButton && tool == MammoTool::Magnifier) {
    drag_ = Drag::Loupe;
    state_->setLoupe(mmAt(event->position()));
  } else if (event->button() == Qt::LeftButton &&
             (tool == MammoTool::Ruler || tool == MammoTool::Ellipse)) {
    drag_ = Drag::Measure;
    cm::ReadingMeasurement m;
    m.kind = tool == MammoTool::Ruler ? cm::ReadingMeasurement::Kind::Ruler
                                      : cm::ReadingMeasurement::Kind::Ellipse;
    m.a = m.b = imageAt(event->position());
    measures_.push_back(m);
  }
}

void MammoViewport::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  reportPointer(pos);
  switch (drag_) {
    case Drag::Pan:
      panBy(pos - dragLast_);
      break;
    case Drag::Window: {
      const QPointF d = pos - dragStart_;
      // A full-width drag spans about the window's own width again.
      const double k = std::max(1.0, dragWindow_.width) / std::max(width(), 1);
      state_->setWindow(MammoWindow{dragWindow_.center + d.y() * k,
                                    std::max(1.0, dragWindow_.width + d.x() * k), -1});
      break;
    }
    case Drag::Loupe:
      state_->setLoupe(mmAt(pos));
      break;
    case Drag::Measure:
      measures_.back().b = imageAt(pos);
      update();
      break;
    case Drag::None:
      if (state_->tool() == MammoTool::Magnifier && image_) {  // the loupe follows the pointer
        state_->setLoupe(mmAt(pos));
      }
      break;
  }
  dragLast_ = pos;
}

void MammoViewport::mouseReleaseEvent(QMouseEvent* event) {
  if (drag_ == Drag::Measure && !measures_.empty()) {
    const QPointF a = widgetPoint(measures_.back().a[0], measures_.back().a[1]);
    if ((event->position() - a).manhattanLength() < 4) {
      measures_.pop_back();  // a click, not a drag
    }
    Q_EMIT measurementsChanged();
    update();
  }
  drag_ = Drag::None;
}

void MammoViewport::mouseDoubleClickEvent(QMouseEvent* event) {
  if (!image_) {
    return;
  }
  const double oneToOne = 1.0 / image_->placed.spacing;
  if (state_->zoom().pixelsPerMm && std::abs(*state_->zoom().pixelsPerMm - oneToOne) < 1e-9) {
    state_->fit();
  } else {
    zoomAbout(event->position(), oneToOne / pixelsPerMm());
  }
}

void MammoViewport::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (frameCount() > 1 && !event->modifiers().testFlag(Qt::ControlModifier)) {
    const int before = frame();
    setFrame(frame() + (steps > 0 ? 1 : steps < 0 ? -1 : 0));
    if (frame() != before) {
      Q_EMIT frameStepped(frame());
    }
  } else if (steps != 0) {
    zoomAbout(event->position(), std::pow(1.2, steps));
  }
  event->accept();
}

void MammoViewport::leaveEvent(QEvent*) {
  if (state_->tool() == MammoTool::Magnifier && drag_ == Drag::None) {
    state_->setLoupe(std::nullopt);
  }
}

void MammoViewport::reportPointer(QPointF widget) {
  if (!image_ || !image_->pyramid) {
    return;
  }
  const auto [column, row] = imageAt(widget);
  const auto& full = image_->pyramid->level(0);
  if (column < 0 || row < 0 || column >= static_cast<double>(full.columns) ||
      row >= static_cast<double>(full.rows)) {
    Q_EMIT pointerMoved({});
    return;
  }
  const auto c = static_cast<std::size_t>(column), r = static_cast<std::size_t>(row);
  const double value = image_->pyramid->valueOf(full.pixels[r * full.columns + c]);
  const auto [depth, heightMm] = cm::chestWallMm(image_->placed, column, row);
  Q_EMIT pointerMoved(QStringLiteral("%1  (%2, %3)  value %4  %5 mm from the chest wall")
                          .arg(image_->title)
                          .arg(c)
                          .arg(r)
                          .arg(value, 0, 'g', 6)
                          .arg(depth, 0, 'f', 1));
}

}  // namespace delineate::viewers
