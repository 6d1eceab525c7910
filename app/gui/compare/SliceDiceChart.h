#pragma once
// The compare view's per-slice Dice plot (Qt Charts): Dice against slice number for the followed
// slice view, broken where a slice has no label in either map, with the current slice marked by
// a vertical line. Clicking the curve asks to go to that slice. Saves itself as PNG.
#include <QChartView>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace delineate::app {

class SliceDiceChart : public QChartView {
  Q_OBJECT

 public:
  explicit SliceDiceChart(QWidget* parent = nullptr);

  // One value per slice (NaN: none); `axisTitle` names the slice direction ("Axial slice").
  void setValues(const std::vector<double>& values, const QString& axisTitle);
  void setCurrentSlice(int slice);
  int currentSlice() const { return current_; }
  // Curve segments drawn (tests): one per run of slices with a value.
  int segmentCount() const { return static_cast<int>(curves_.size()); }
  // Renders the chart at its current size into a PNG; false when the file cannot be written.
  bool savePng(const QString& path);

 Q_SIGNALS:
  void sliceClicked(int slice);

 private:
  void addCurve(const QList<QPointF>& points);

  QValueAxis* x_;
  QValueAxis* y_;
  QLineSeries* marker_;
  std::vector<QLineSeries*> curves_;
  int current_ = -1;
};

}  // namespace delineate::app
