#pragma once
// Keeps the segments dock's numbers current: a while after the last edit (debounced), copies the
// active label map and measures it in a background job (core::measureSegments: voxels, volume,
// intensity mean and SD, largest diameter). A newer edit cancels a running measurement.
#include <QObject>
#include <vector>

#include "core/measure/SegmentMeasurements.h"

class QTimer;

namespace delineate::app {

class EditSession;
class JobRunner;

class SegmentMeasurer : public QObject {
  Q_OBJECT

 public:
  explicit SegmentMeasurer(EditSession* session, int debounceMs = 400, QObject* parent = nullptr);
  ~SegmentMeasurer() override;

  const std::vector<core::SegmentMeasurement>& results() const { return results_; }
  // True while a measurement is scheduled or running.
  bool pending() const;
  // Measures now (skips the debounce).
  void measureNow();

 Q_SIGNALS:
  void measured();

 private:
  static constexpr int kRetryMs = 30;
  void schedule();

  EditSession* session_;
  QTimer* timer_;
  JobRunner* jobs_;
  std::vector<core::SegmentMeasurement> results_;
  unsigned generation_ = 0;  // results of older measurements are dropped
};

}  // namespace delineate::app
