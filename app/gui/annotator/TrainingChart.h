#pragma once
// The annotator loop's training plot (Qt Charts): the trainer's key metric (e.g. validation mean
// Dice, left axis) and its loss (right axis) per epoch, from the server's train_stats — the whole
// history when the server keeps one, else the epochs seen while polling. Saves itself as PNG.
#include <QChartView>
#include <map>
#include <string>

#include "core/ai/TrainerStats.h"

class QLineSeries;
class QValueAxis;

namespace delineate::app {

class TrainingChart : public QChartView {
  Q_OBJECT

 public:
  explicit TrainingChart(QWidget* parent = nullptr);

  // Adds the epochs of `stats` (a new run — fewer epochs than shown, another trainer — starts
  // the plot afresh).
  void setStats(const core::ai::TrainerStats& stats);
  void clear();
  // Points drawn (tests): of the key metric, and of the loss.
  int metricPoints() const { return static_cast<int>(metric_.size()); }
  int lossPoints() const { return static_cast<int>(loss_.size()); }
  const QString& metricName() const { return metricName_; }
  bool savePng(const QString& path);

 private:
  void redraw();

  QValueAxis* x_;
  QValueAxis* yMetric_;
  QValueAxis* yLoss_;
  QLineSeries* metricSeries_;
  QLineSeries* lossSeries_;
  std::map<int, double> metric_;  // epoch -> value
  std::map<int, double> loss_;
  QString metricName_;
  QString lossName_;
  std::string trainer_;
};

}  // namespace delineate::app
