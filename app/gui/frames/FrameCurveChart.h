#pragma once
// The curve of a 4-D image's value over its frames at the cursor voxel: the time-intensity curve a
// DCE or perfusion reader plots, or the signal over b-values or echoes. The x axis is the frame
// axis (time in s, b-value, echo time; else the frame number), the current frame is marked by a
// vertical line, and clicking the curve asks for that frame.
#include <QChartView>
#include <array>
#include <cstddef>
#include <memory>
#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace delineate::core {
class FrameSeries;
}

namespace delineate::app {

class FrameCurveChart : public QChartView {
  Q_OBJECT

 public:
  explicit FrameCurveChart(QWidget* parent = nullptr);

  // The series (null clears the chart), the voxel whose curve to show, and the frame shown.
  void show(std::shared_ptr<const core::FrameSeries> series,
            const std::array<std::size_t, 3>& voxel, std::size_t frame);
  // The plotted (x, value) points, for tests.
  std::vector<QPointF> points() const;
  QString title() const;

 Q_SIGNALS:
  void frameClicked(std::size_t frame);

 private:
  double xOf(std::size_t frame) const;

  std::shared_ptr<const core::FrameSeries> series_;
  QValueAxis* x_;
  QValueAxis* y_;
  QLineSeries* curve_;
  QScatterSeries* dots_;
  QLineSeries* marker_;
};

}  // namespace delineate::app
