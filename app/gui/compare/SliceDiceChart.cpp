#include "app/gui/compare/SliceDiceChart.h"

#include <QChart>
#include <QLineSeries>
#include <QPixmap>
#include <QValueAxis>
#include <cmath>

namespace delineate::app {

SliceDiceChart::SliceDiceChart(QWidget* parent)
    : QChartView(parent), x_(new QValueAxis), y_(new QValueAxis), marker_(new QLineSeries) {
  auto* chart = new QChart;
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setBackgroundRoundness(0);
  x_->setTitleText(tr("Slice"));
  x_->setLabelFormat(QStringLiteral("%d"));
  y_->setTitleText(tr("Dice"));
  y_->setRange(0.0, 1.0);
  y_->setTickCount(6);
  chart->addAxis(x_, Qt::AlignBottom);
  chart->addAxis(y_, Qt::AlignLeft);
  QPen pen(QColor(120, 120, 120));
  pen.setStyle(Qt::DashLine);
  marker_->setPen(pen);
  chart->addSeries(marker_);
  marker_->attachAxis(x_);
  marker_->attachAxis(y_);
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(160);
}

void SliceDiceChart::addCurve(const QList<QPointF>& points) {
  auto* curve = new QLineSeries;
  curve->setPen(QPen(QColor(0, 114, 178), 1.5));
  curve->setPointsVisible(points.size() == 1);
  curve->append(points);
  chart()->addSeries(curve);
  curve->attachAxis(x_);
  curve->attachAxis(y_);
  connect(curve, &QLineSeries::clicked, this, [this](const QPointF& p) {
    Q_EMIT sliceClicked(static_cast<int>(std::lround(p.x())) - 1);
  });
  curves_.push_back(curve);
}

void SliceDiceChart::setValues(const std::vector<double>& values, const QString& axisTitle) {
  for (QLineSeries* curve : curves_) {
    chart()->removeSeries(curve);
    delete curve;
  }
  curves_.clear();
  QList<QPointF> run;
  for (std::size_t s = 0; s < values.size(); ++s) {
    if (std::isfinite(values[s])) {
      run.append(QPointF(double(s + 1), values[s]));  // slices numbered from 1, as in the views
    } else if (!run.isEmpty()) {
      addCurve(run);
      run.clear();
    }
  }
  if (!run.isEmpty()) {
    addCurve(run);
  }
  x_->setTitleText(axisTitle);
  x_->setRange(1, std::max<double>(2, double(values.size())));
  setCurrentSlice(current_);
}

void SliceDiceChart::setCurrentSlice(int slice) {
  current_ = slice;
  marker_->clear();
  if (slice >= 0) {
    marker_->append(slice + 1, 0.0);
    marker_->append(slice + 1, 1.0);
  }
}

bool SliceDiceChart::savePng(const QString& path) {
  return grab().save(path, "PNG");
}

}  // namespace delineate::app
