#include "app/gui/readers/ReadersSideBySide.h"

#include <QPainter>
#include <algorithm>
#include <array>
#include <cmath>

#include "annotation/review/ReaderReview.h"
#include "app/gui/readers/ReadersController.h"
#include "core/model/LabelMap.h"
#include "viewers/ViewState.h"

namespace delineate::app {

namespace {

constexpr int kTileGap = 6;
constexpr int kNameHeight = 16;
constexpr double kFillAlpha = 0.55;
constexpr double kOthersAlpha = 0.3;

// The index axis whose direction lies most along patient axis `lps` (0 x, 1 y, 2 z), among those
// not taken yet.
int dominantAxis(const core::ImageGeometry& g, int lps, const std::array<bool, 3>& taken) {
  int best = -1;
  double bestValue = -1;
  for (int a = 0; a < 3; ++a) {
    const double v = std::abs(g.axis(a)[std::size_t(lps)]);
    if (!taken[std::size_t(a)] && v > bestValue) {
      best = a;
      bestValue = v;
    }
  }
  return best;
}

QRgb blend(QRgb under, const QColor& over, double alpha) {
  const auto mix = [alpha](int a, int b) { return int(std::lround(a * (1 - alpha) + b * alpha)); };
  return qRgb(mix(qRed(under), over.red()), mix(qGreen(under), over.green()),
              mix(qBlue(under), over.blue()));
}

}  // namespace

ReadersSideBySide::ReadersSideBySide(ReadersController* controller,
                                     std::shared_ptr<viewers::ViewState> state, QWidget* parent)
    : QWidget(parent), controller_(controller), state_(std::move(state)) {
  setObjectName(QStringLiteral("readersSideBySide"));
  setMinimumHeight(120);
  observer_ = state_->addObserver([this](unsigned) { update(); });
  connect(controller_, &ReadersController::computed, this, qOverload<>(&QWidget::update));
  connect(controller_, &ReadersController::regionChanged, this, qOverload<>(&QWidget::update));
  connect(controller_, &ReadersController::regionTaken, this, qOverload<>(&QWidget::update));
}

ReadersSideBySide::~ReadersSideBySide() {
  state_->removeObserver(observer_);
}

void ReadersSideBySide::setPlane(Plane plane) {
  plane_ = plane;
  update();
}

void ReadersSideBySide::setFieldOfViewMm(double mm) {
  fovMm_ = std::max(5.0, mm);
  update();
}

QColor ReadersSideBySide::readerColor(int reader) {
  static const std::array<QColor, 6> colours = {QColor(230, 159, 0), QColor(86, 180, 233),
                                                QColor(0, 158, 115), QColor(204, 121, 167),
                                                QColor(0, 114, 178), QColor(213, 94, 0)};
  return colours[std::size_t(reader) % colours.size()];
}

int ReadersSideBySide::tiles() const {
  const annotation::ReaderReview* review = controller_->review();
  return review && state_->volume() ? int(review->names().size()) : 0;
}

std::optional<ReadersSideBySide::Layout> ReadersSideBySide::layout() const {
  const annotation::ReaderReview* review = controller_->review();
  if (!review || !state_->volume() || !review->votes().map) {
    return std::nullopt;
  }
  const core::ImageGeometry& g = review->votes().map->geometry();
  if (g.size != state_->volume()->geometry().size) {
    return std::nullopt;  // another image is shown
  }
  // Patient axes across and down the screen, and the slice's normal, as the slice views have
  // them: axial (x right = patient left, y down = posterior), coronal (x, down = inferior),
  // sagittal (y right = posterior, down = inferior).
  const int normal = plane_ == Plane::Axial ? 2 : plane_ == Plane::Coronal ? 1 : 0;
  const int acrossLps = plane_ == Plane::Sagittal ? 1 : 0;
  const int downLps = plane_ == Plane::Axial ? 1 : 2;
  std::array<bool, 3> taken{false, false, false};
  Layout l;
  l.fixed = dominantAxis(g, normal, taken);
  taken[std::size_t(l.fixed)] = true;
  l.across = dominantAxis(g, acrossLps, taken);
  taken[std::size_t(l.across)] = true;
  l.down = dominantAxis(g, downLps, taken);
  l.flipAcross = g.axis(l.across)[std::size_t(acrossLps)] < 0;
  const double downSign = g.axis(l.down)[std::size_t(downLps)];
  l.flipDown = plane_ == Plane::Axial ? downSign < 0 : downSign > 0;

  const core::Vec3 at = g.worldToIndex(state_->cursor());
  const auto clampIndex = [&g](double v, int axis) {
    return std::size_t(
        std::clamp<long long>(std::llround(v), 0, (long long)(g.size[std::size_t(axis)]) - 1));
  };
  l.slice = clampIndex(at[std::size_t(l.fixed)], l.fixed);
  const auto range = [&](int axis, std::size_t& lo, std::size_t& hi) {
    const double spacing = g.spacing[std::size_t(axis)];
    const long long half = std::max<long long>(2, std::llround(fovMm_ / 2 / spacing));
    const long long centre = (long long)clampIndex(at[std::size_t(axis)], axis);
    const long long n = (long long)g.size[std::size_t(axis)];
    lo = std::size_t(std::clamp<long long>(centre - half, 0, n));
    hi = std::size_t(std::clamp<long long>(centre + half + 1, 0, n));
  };
  range(l.across, l.a0, l.a1);
  range(l.down, l.d0, l.d1);
  l.aspect = g.spacing[std::size_t(l.down)] / g.spacing[std::size_t(l.across)];
  return l;
}

core::Size3 ReadersSideBySide::voxelAt(const Layout& l, int x, int y) const {
  core::Size3 v{};
  v[std::size_t(l.fixed)] = l.slice;
  v[std::size_t(l.across)] = l.flipAcross ? l.a1 - 1 - std::size_t(x) : l.a0 + std::size_t(x);
  v[std::size_t(l.down)] = l.flipDown ? l.d1 - 1 - std::size_t(y) : l.d0 + std::size_t(y);
  return v;
}

std::optional<QPoint> ReadersSideBySide::pixelOf(const core::Size3& ijk) const {
  const auto l = layout();
  if (!l || ijk[std::size_t(l->fixed)] != l->slice) {
    return std::nullopt;
  }
  const std::size_t a = ijk[std::size_t(l->across)], d = ijk[std::size_t(l->down)];
  if (a < l->a0 || a >= l->a1 || d < l->d0 || d >= l->d1) {
    return std::nullopt;
  }
  return QPoint(int(l->flipAcross ? l->a1 - 1 - a : a - l->a0),
                int(l->flipDown ? l->d1 - 1 - d : d - l->d0));
}

QImage ReadersSideBySide::tile(int reader) const {
  const auto l = layout();
  const annotation::ReaderReview* review = controller_->review();
  if (!l || reader < 0 || reader >= tiles()) {
    return {};
  }
  const core::Volume& image = *state_->volume();
  const core::LabelMap& votes = *review->votes().map;
  const auto maps = controller_->readerMaps();
  const core::LabelMap* mine =
      std::size_t(reader) < maps.size() ? maps[std::size_t(reader)].get() : nullptr;
  if (mine && mine->geometry().size != votes.geometry().size) {
    mine = nullptr;
  }
  const std::uint16_t value = review->readerValue(std::size_t(reader));
  const viewers::WindowLevel w = state_->windowLevel();
  const double low = w.center - w.width / 2, width = std::max(1e-9, w.width);
  const QColor colour = readerColor(reader);
  const int nx = int(l->a1 - l->a0), ny = int(l->d1 - l->d0);
  QImage out(nx, ny, QImage::Format_RGB32);
  for (int y = 0; y < ny; ++y) {
    auto* row = reinterpret_cast<QRgb*>(out.scanLine(y));
    for (int x = 0; x < nx; ++x) {
      const core::Size3 v = voxelAt(*l, x, y);
      const int grey =
          int(std::clamp((image.valueAt(v[0], v[1], v[2]) - low) / width, 0.0, 1.0) * 255.0);
      QRgb pixel = qRgb(grey, grey, grey);
      const std::size_t at = votes.index(v[0], v[1], v[2]);
      const bool marked = mine && value != 0 && mine->data()[at] == value;
      if (marked) {
        pixel = blend(pixel, colour, kFillAlpha);
      } else if (votes.data()[at] > 0) {
        pixel = blend(pixel, Qt::white, kOthersAlpha);  // only other readers marked it
      }
      row[x] = pixel;
    }
  }
  return out;
}

QRect ReadersSideBySide::tileRect(int reader) const {
  const int n = tiles();
  const auto l = layout();
  if (n == 0 || !l || reader < 0 || reader >= n) {
    return {};
  }
  const int columns = n <= 3 ? n : (n + 1) / 2;
  const int rows = (n + columns - 1) / columns;
  const int cellWidth = (width() - kTileGap * (columns - 1)) / columns;
  const int cellHeight = (height() - kTileGap * (rows - 1)) / rows - kNameHeight;
  const double pixelsAcross = double(l->a1 - l->a0);
  const double pixelsDown = double(l->d1 - l->d0) * l->aspect;
  const double scale = std::max(0.1, std::min(cellWidth / pixelsAcross, cellHeight / pixelsDown));
  const QSize size(int(pixelsAcross * scale), int(pixelsDown * scale));
  const int column = reader % columns, row = reader / columns;
  const int left = column * (cellWidth + kTileGap) + (cellWidth - size.width()) / 2;
  const int top = row * (cellHeight + kNameHeight + kTileGap) + kNameHeight;
  return QRect(QPoint(left, top), size);
}

QSize ReadersSideBySide::sizeHint() const {
  return {320, 200};
}

void ReadersSideBySide::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  const int n = tiles();
  if (n == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               tr("Compare readers to see their versions side by side."));
    return;
  }
  const annotation::ReaderReview* review = controller_->review();
  const auto l = layout();
  for (int r = 0; r < n; ++r) {
    const QRect target = tileRect(r);
    if (target.isEmpty()) {
      continue;
    }
    p.drawImage(target, tile(r));
    p.setPen(readerColor(r));
    p.drawRect(target.adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(target.left(), target.top() - kNameHeight, target.width(), kNameHeight),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
               QString::fromStdString(review->names()[std::size_t(r)]));
    // The cursor, where the views' crosshair is.
    if (l) {
      const core::Vec3 at = review->votes().map->geometry().worldToIndex(state_->cursor());
      core::Size3 v{};
      for (int a = 0; a < 3; ++a) {
        v[std::size_t(a)] = std::size_t(std::max<long long>(0, std::llround(at[std::size_t(a)])));
      }
      v[std::size_t(l->fixed)] = l->slice;
      if (const auto px = pixelOf(v)) {
        const double sx = double(target.width()) / double(l->a1 - l->a0);
        const double sy = double(target.height()) / double(l->d1 - l->d0);
        const QPointF centre(target.left() + (px->x() + 0.5) * sx,
                             target.top() + (px->y() + 0.5) * sy);
        p.setPen(QPen(QColor(255, 255, 0, 200), 1));
        p.drawLine(centre - QPointF(6, 0), centre - QPointF(2, 0));
        p.drawLine(centre + QPointF(2, 0), centre + QPointF(6, 0));
        p.drawLine(centre - QPointF(0, 6), centre - QPointF(0, 2));
        p.drawLine(centre + QPointF(0, 2), centre + QPointF(0, 6));
      }
    }
  }
}

}  // namespace delineate::app
