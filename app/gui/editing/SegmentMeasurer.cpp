#include "app/gui/editing/SegmentMeasurer.h"

#include <QTimer>
#include <memory>

#include "app/gui/editing/EditSession.h"
#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

SegmentMeasurer::SegmentMeasurer(EditSession* session, int debounceMs, QObject* parent)
    : QObject(parent), session_(session), timer_(new QTimer(this)), jobs_(new JobRunner(this)) {
  timer_->setSingleShot(true);
  timer_->setInterval(debounceMs);
  connect(timer_, &QTimer::timeout, this, &SegmentMeasurer::measureNow);
  connect(session_, &EditSession::voxelsChanged, this, &SegmentMeasurer::schedule);
  connect(session_, &EditSession::segmentsChanged, this, &SegmentMeasurer::schedule);
  connect(session_, &EditSession::labelMapsChanged, this, &SegmentMeasurer::schedule);
}

SegmentMeasurer::~SegmentMeasurer() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

bool SegmentMeasurer::pending() const {
  return timer_->isActive() || jobs_->busy();
}

void SegmentMeasurer::schedule() {
  timer_->start();
}

void SegmentMeasurer::measureNow() {
  timer_->stop();
  const unsigned generation = ++generation_;
  auto map = session_->activeMap();
  if (!map) {
    jobs_->cancel();
    results_.clear();
    Q_EMIT measured();
    return;
  }
  // The worker reads a copy: never voxels the GUI thread is painting.
  auto copy = session_->readCopy(*map);
  if (!copy) {
    timer_->start(kRetryMs);  // the copy is being brought up to date
    return;
  }
  const core::VolumePtr image = session_->image();
  jobs_->run<std::vector<core::SegmentMeasurement>>(
      tr("Measuring segments"),
      [copy, image](core::ProgressSink& progress) {
        return core::measureSegments(*copy, image.get(), progress);
      },
      [this, generation](std::vector<core::SegmentMeasurement> rows) {
        if (generation != generation_) {
          return;
        }
        results_ = std::move(rows);
        Q_EMIT measured();
      },
      [](const QString&, bool) {});
}

}  // namespace delineate::app
