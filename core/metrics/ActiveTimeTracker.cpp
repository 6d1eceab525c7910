#include "core/metrics/ActiveTimeTracker.h"

namespace delineate::core {

void ActiveTimeTracker::event(double seconds) {
  if (events_ > 0) {
    const double gap = seconds - latest_;
    if (gap <= 0) {
      ++events_;
      return;
    }
    if (gap < idleThreshold_) {
      active_ += gap;
    }
  }
  latest_ = seconds;
  ++events_;
}

void ActiveTimeTracker::event(std::chrono::steady_clock::time_point time) {
  event(std::chrono::duration<double>(time.time_since_epoch()).count());
}

void ActiveTimeTracker::reset() {
  active_ = 0;
  latest_ = 0;
  events_ = 0;
}

}  // namespace delineate::core
