#include "app/gui/frames/FrameCurveChart.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/model/FrameSeries.h"

namespace delineate::app {

FrameCurveChart::FrameCurveChart(QWidget* parent)
    : QChartView(parent),
      x_(new QValueAxis),
      y_(new QValueAxis),
      curve_(new QLineSeries),
      dots_(new QScatterSeries),
      marker_(new QLineSeries) {
  setObjectName(QStringLiteral("frameCurve"));
  auto* chart = new QChart;
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setBackgroundRoundness(0);
  y_->setTitleText(tr("Value"));
  chart->addAxis(x_, Qt::AlignBottom);
  chart->addAxis(y_, Qt::AlignLeft);
  curve_->setPen(QPen(QColor(0, 114, 178), 1.5));
  dots_->setMarkerSize(6);
  dots_->setColor(QColor(0, 114, 178));
  QPen pen(QColor(120, 120, 120));
  pen.setStyle(Qt::DashLine);
  marker_->setPen(pen);
  for (QXYSeries* s : std::initializer_list<QXYSeries*>{curve_, dots_, marker_}) {
    chart->addSeries(s);
    s->attachAxis(x_);
    s->attachAxis(y_);
  }
  auto clicked = [this](const QPointF& p) {
    if (!series_) {
      return;
    }
    std::size_t best = 0;
    for (std::size_t f = 1; f < series_->count(); ++f) {
      if (std::abs(xOf(f) - p.x()) < std::abs(xOf(best) - p.x())) {
        best = f;
      }
    }
    Q_EMIT frameClicked(best);
  };
  connect(curve_, &QLineSeries::clicked, this, clicked);
  connect(dots_, &QScatterSeries::clicked, this, clicked);
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(160);
}

double FrameCurveChart::xOf(std::size_t frame) const {
  const auto& values = series_->axis().values;
  return frame < values.size() ? values[frame] : static_cast<double>(frame + 1);
}

void FrameCurveChart::show(std::shared_ptr<const core::FrameSeries> series,
                           const std::array<std::size_t, 3>& voxel, std::size_t frame) {
  series_ = std::move(series);
  curve_->clear();
  dots_->clear();
  marker_->clear();
  if (!series_) {
    chart()->setTitle({});
    return;
  }
  const auto& g = series_->grid();
  if (voxel[0] >= g.size[0] || voxel[1] >= g.size[1] || voxel[2] >= g.size[2]) {
    return;
  }
  const std::vector<double> values = series_->valuesAt(voxel[0], voxel[1], voxel[2]);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  QList<QPointF> points;
  for (std::size_t f = 0; f < values.size(); ++f) {
    if (std::isfinite(values[f])) {
      points.append(QPointF(xOf(f), values[f]));
      lo = std::min(lo, values[f]);
      hi = std::max(hi, values[f]);
    }
  }
  curve_->append(points);
  dots_->append(points);
  if (!(lo <= hi)) {
    lo = 0;
    hi = 1;
  }
  const double pad = hi > lo ? 0.05 * (hi - lo) : 1.0;
  y_->setRange(lo - pad, hi + pad);
  const core::FrameAxis& axis = series_->axis();
  const bool numbered = axis.values.size() != series_->count();
  x_->setTitleText(numbered ? QString::fromStdString(axis.name)
                            : QStringLiteral("%1 (%2)").arg(QString::fromStdString(axis.name),
                                                            QString::fromStdString(axis.unit)));
  const double x0 = xOf(0), x1 = xOf(series_->count() - 1);
  x_->setRange(std::min(x0, x1), std::max(x0, x1) > std::min(x0, x1) ? std::max(x0, x1) : x0 + 1);
  x_->applyNiceNumbers();
  marker_->append(xOf(frame), lo - pad);
  marker_->append(xOf(frame), hi + pad);
  chart()->setTitle(
      tr("Voxel [%1, %2, %3] over the frames").arg(voxel[0]).arg(voxel[1]).arg(voxel[2]));
}

std::vector<QPointF> FrameCurveChart::points() const {
  const auto list = curve_->points();
  return {list.begin(), list.end()};
}

QString FrameCurveChart::title() const {
  return chart()->title();
}

}  // namespace delineate::app
