#pragma once
// Active editing time from the timestamps of the user's edit events: the sum of the gaps between
// consecutive events that are shorter than an idle threshold (60 s by default). A longer gap
// means the user was away or doing something else and counts nothing; so does the time before
// the first event and after the last. Pure logic: feed it times, no clock is read.
#include <chrono>
#include <cstddef>

namespace delineate::core {

class ActiveTimeTracker {
 public:
  explicit ActiveTimeTracker(double idleThresholdSeconds = 60.0)
      : idleThreshold_(idleThresholdSeconds) {}

  // An event at `seconds` on any fixed clock. An event earlier than the latest one counts
  // nothing and does not move it back.
  void event(double seconds);
  // An event at a steady_clock time (seconds since its epoch); do not mix with other clocks.
  void event(std::chrono::steady_clock::time_point time);

  double activeSeconds() const { return active_; }
  std::size_t events() const { return events_; }
  double idleThresholdSeconds() const { return idleThreshold_; }
  // Forgets every event.
  void reset();

 private:
  double idleThreshold_;
  double active_ = 0;
  double latest_ = 0;
  std::size_t events_ = 0;
};

}  // namespace delineate::core
