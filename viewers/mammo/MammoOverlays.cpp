#include "viewers/mammo/MammoOverlays.h"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

namespace delineate::viewers {

QTransform imageToWidget(const core::mammo::ViewTransform& t, int width, int height) {
  const double sign = t.mirror ? -1.0 : 1.0;
  return QTransform(sign * t.scale, 0, 0, t.scale, width / 2.0 - sign * t.centerColumn * t.scale,
                    height / 2.0 - t.centerRow * t.scale);
}

QImage heatmapImage(const core::mammo::FindingHeatmap& heatmap, double threshold, double opacity) {
  QImage image(static_cast<int>(heatmap.columns), static_cast<int>(heatmap.rows),
               QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  if (heatmap.values.size() != heatmap.columns * heatmap.rows) {
    return image;
  }
  for (std::size_t r = 0; r < heatmap.rows; ++r) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(r)));
    for (std::size_t c = 0; c < heatmap.columns; ++c) {
      const double v = std::clamp<double>(heatmap.values[r * heatmap.columns + c], 0.0, 1.0);
      if (v < threshold || v <= 0) {
        continue;
      }
      // Yellow at the threshold to red at 1, more opaque with the probability.
      const double t = threshold < 1 ? (v - threshold) / (1 - threshold) : 1.0;
      const int alpha = static_cast<int>(std::lround(255 * opacity * (0.35 + 0.65 * t)));
      const int green = static_cast<int>(std::lround(220 * (1 - t)));
      line[c] = qPremultiply(qRgba(255, green, 0, alpha));
    }
  }
  return image;
}

void drawHeatmap(QPainter& p, const QTransform& toWidget, const core::mammo::FindingHeatmap& h,
                 const QImage& image) {
  p.save();
  p.setTransform(toWidget, true);
  p.setRenderHint(QPainter::SmoothPixmapTransform, true);
  p.drawImage(
      QRectF(0, 0, static_cast<double>(h.columns) * h.step, static_cast<double>(h.rows) * h.step),
      image);
  p.restore();
}

void drawMarks(QPainter& p, const QTransform& toWidget,
               const std::vector<core::mammo::FindingMark>& marks, int current, const QRect& area,
               bool showOptional, std::optional<std::pair<int, int>> frames) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  std::vector<QRectF> placed;
  for (std::size_t i = 0; i < marks.size(); ++i) {
    const auto& m = marks[i];
    if (!core::mammo::presented(m.intent, showOptional) ||
        (frames && m.frame && (*m.frame < frames->first || *m.frame > frames->second))) {
      continue;
    }
    const QRectF box =
        toWidget.mapRect(QRectF(QPointF(m.x0, m.y0), QPointF(m.x1, m.y1))).adjusted(-4, -4, 4, 4);
    const bool isCurrent = static_cast<int>(i) == current;
    const QColor colour = m.kind == "calcification" ? QColor(80, 220, 255)
                          : m.kind == "asymmetry"   ? QColor(200, 140, 255)
                                                    : QColor(255, 90, 60);
    p.setPen(QPen(colour, isCurrent ? 3.0 : 1.6, isCurrent ? Qt::SolidLine : Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    if (m.kind == "calcification") {
      p.drawRect(box);
    } else {
      p.drawEllipse(box);
    }
    // Labels of overlapping marks (a mass also marked as an asymmetry) go one under the other.
    QString text = QString::fromStdString(m.kind);
    if (m.scored) {
      text += QStringLiteral(" %1").arg(m.score, 0, 'f', 2);
    }
    if (m.probability) {
      text += QStringLiteral(" p%1").arg(*m.probability, 0, 'f', 2);
    }
    const double textWidth = p.fontMetrics().horizontalAdvance(text) + 4;
    QRectF label(box.left(), box.bottom() + 2, textWidth, 16);
    if (label.right() > area.right()) {  // kept inside the viewport
      label.moveRight(area.right());
    }
    if (label.left() < area.left()) {
      label.moveLeft(area.left());
    }
    while (std::any_of(placed.begin(), placed.end(),
                       [&](const QRectF& r) { return r.intersects(label); })) {
      label.translate(0, 16);
    }
    placed.push_back(label);
    p.setPen(Qt::black);
    p.drawText(label.translated(1, 1), Qt::AlignLeft | Qt::AlignTop, text);
    p.setPen(colour);
    p.drawText(label, Qt::AlignLeft | Qt::AlignTop, text);
  }
  p.restore();
}

void drawMeasurements(QPainter& p, const QTransform& toWidget,
                      const std::vector<core::mammo::ReadingMeasurement>& measurements,
                      const MammoImage& image) {
  if (!image.pyramid) {
    return;
  }
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  const QColor colour(120, 255, 120);
  for (const auto& m : measurements) {
    const QPointF a = toWidget.map(QPointF(m.a[0], m.a[1]));
    const QPointF b = toWidget.map(QPointF(m.b[0], m.b[1]));
    p.setPen(QPen(colour, 1.5));
    p.setBrush(Qt::NoBrush);
    if (m.kind == core::mammo::ReadingMeasurement::Kind::Ruler) {
      p.drawLine(a, b);
      for (const QPointF& end : {a, b}) {
        p.drawEllipse(end, 2.5, 2.5);
      }
    } else {
      p.drawEllipse(QRectF(a, b).normalized());
    }
    const auto values = core::mammo::measure(m, *image.pyramid, image.placed.spacing);
    const QString text = QString::fromStdString(core::mammo::describe(m, values));
    const QPointF at = QRectF(a, b).normalized().bottomRight() + QPointF(6, 4);
    p.setPen(Qt::black);
    p.drawText(at + QPointF(1, 1), text);
    p.setPen(colour);
    p.drawText(at, text);
  }
  p.restore();
}

void drawCaption(QPainter& p, const QRect& area, const MammoImage& image, bool wallOnLeft,
                 const QString& zoomText, const QString& windowText, bool preview) {
  p.save();
  const int margin = 8;
  const QRect inner = area.adjusted(margin, margin, -margin, -margin);
  const Qt::Alignment side = wallOnLeft ? Qt::AlignRight : Qt::AlignLeft;
  QFont big = p.font();
  big.setPointSizeF(big.pointSizeF() * 1.3);
  big.setBold(true);
  p.setFont(big);
  p.setPen(QColor(255, 255, 255));
  p.drawText(inner, side | Qt::AlignTop, image.title);
  p.setFont(QFont());
  p.setPen(QColor(220, 220, 220));
  p.drawText(inner.adjusted(0, QFontMetrics(big).height() + 2, 0, 0), side | Qt::AlignTop,
             image.subtitle);
  QString bottom = zoomText + QStringLiteral("   ") + windowText;
  if (preview) {
    bottom += QStringLiteral("   (preview)");
  }
  p.drawText(inner, side | Qt::AlignBottom, bottom);
  p.restore();
}

}  // namespace delineate::viewers
