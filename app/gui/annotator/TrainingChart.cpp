#include "app/gui/annotator/TrainingChart.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QPixmap>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace delineate::app {

namespace {

// The loss among a set of metrics: the first whose name says so ("loss", "train_loss").
std::optional<std::pair<std::string, double>> lossOf(const core::ai::TrainerMetrics& metrics) {
  for (const auto& [name, value] : metrics) {
    if (name.find("loss") != std::string::npos) {
      return std::pair(name, value);
    }
  }
  return std::nullopt;
}

// The key metric: the one train_stats names, else the first that is not a loss.
std::optional<std::pair<std::string, double>> keyOf(const core::ai::TrainerMetrics& metrics,
                                                    const std::string& key) {
  for (const auto& [name, value] : metrics) {
    if (key.empty() ? name.find("loss") == std::string::npos : name == key) {
      return std::pair(name, value);
    }
  }
  return std::nullopt;
}

void fillSeries(QLineSeries* series, const std::map<int, double>& points) {
  QList<QPointF> list;
  for (const auto& [epoch, value] : points) {
    list.append(QPointF(epoch, value));
  }
  series->replace(list);
  series->setPointsVisible(list.size() < 30);
}

std::pair<double, double> rangeOf(const std::map<int, double>& points, double lo, double hi) {
  for (const auto& [epoch, value] : points) {
    lo = std::min(lo, value);
    hi = std::max(hi, value);
  }
  return {lo, hi > lo ? hi : lo + 1};
}

}  // namespace

TrainingChart::TrainingChart(QWidget* parent)
    : QChartView(parent),
      x_(new QValueAxis),
      yMetric_(new QValueAxis),
      yLoss_(new QValueAxis),
      metricSeries_(new QLineSeries),
      lossSeries_(new QLineSeries) {
  auto* chart = new QChart;
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setBackgroundRoundness(0);
  chart->legend()->setAlignment(Qt::AlignBottom);
  x_->setTitleText(tr("Epoch"));
  x_->setLabelFormat(QStringLiteral("%d"));
  x_->setRange(0, 1);
  yMetric_->setRange(0, 1);
  yLoss_->setRange(0, 1);
  chart->addAxis(x_, Qt::AlignBottom);
  chart->addAxis(yMetric_, Qt::AlignLeft);
  chart->addAxis(yLoss_, Qt::AlignRight);
  metricSeries_->setPen(QPen(QColor(0, 114, 178), 2));
  lossSeries_->setPen(QPen(QColor(213, 94, 0), 1.5, Qt::DashLine));
  for (QLineSeries* s : {metricSeries_, lossSeries_}) {
    chart->addSeries(s);
    s->attachAxis(x_);
  }
  metricSeries_->attachAxis(yMetric_);
  lossSeries_->attachAxis(yLoss_);
  metricSeries_->setName(tr("metric"));
  lossSeries_->setName(tr("loss"));
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(180);
}

void TrainingChart::clear() {
  metric_.clear();
  loss_.clear();
  metricName_.clear();
  lossName_.clear();
  redraw();
}

void TrainingChart::setStats(const core::ai::TrainerStats& stats) {
  const int last = metric_.empty() && loss_.empty()
                       ? 0
                       : std::max(metric_.empty() ? 0 : metric_.rbegin()->first,
                                  loss_.empty() ? 0 : loss_.rbegin()->first);
  if (stats.trainer != trainer_ || (stats.currentEpoch > 0 && stats.currentEpoch < last)) {
    clear();  // another trainer, or a new run
    trainer_ = stats.trainer;
  }
  auto add = [this, &stats](int epoch, const core::ai::TrainerMetrics& metrics) {
    if (epoch <= 0) {
      return;
    }
    if (const auto key = keyOf(metrics, stats.keyMetricName)) {
      metric_[epoch] = key->second;
      metricName_ = QString::fromStdString(key->first);
    }
    if (const auto loss = lossOf(metrics)) {
      loss_[epoch] = loss->second;
      lossName_ = QString::fromStdString(loss->first);
    }
  };
  for (const core::ai::TrainerEpoch& e : stats.history) {
    add(e.epoch, e.metrics);
  }
  add(stats.currentEpoch, stats.metrics);
  redraw();
}

void TrainingChart::redraw() {
  fillSeries(metricSeries_, metric_);
  fillSeries(lossSeries_, loss_);
  metricSeries_->setName(metricName_.isEmpty() ? tr("metric") : metricName_);
  lossSeries_->setName(lossName_.isEmpty() ? tr("loss") : lossName_);
  int epochs = 1;
  for (const auto* points : {&metric_, &loss_}) {
    if (!points->empty()) {
      epochs = std::max(epochs, points->rbegin()->first);
    }
  }
  x_->setRange(0, epochs);
  x_->setTickCount(std::min(epochs, 10) + 1);
  const auto [mlo, mhi] = rangeOf(metric_, 0.0, 1.0);
  yMetric_->setRange(mlo, mhi);
  const auto [llo, lhi] = rangeOf(loss_, 0.0, 0.0);
  yLoss_->setRange(llo, lhi);
  yLoss_->applyNiceNumbers();
}

bool TrainingChart::savePng(const QString& path) {
  return grab().save(path, "PNG");
}

}  // namespace delineate::app
