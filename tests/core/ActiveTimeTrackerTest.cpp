// Active editing time: gaps between consecutive events shorter than the idle threshold.
#include "core/metrics/ActiveTimeTracker.h"

#include <gtest/gtest.h>

using delineate::core::ActiveTimeTracker;

TEST(ActiveTimeTracker, SumsTheGapsShorterThanTheThreshold) {
  ActiveTimeTracker t;
  EXPECT_EQ(t.idleThresholdSeconds(), 60.0);
  t.event(1000.0);
  EXPECT_EQ(t.activeSeconds(), 0.0);  // one event: no time yet
  t.event(1010.0);
  t.event(1020.5);
  t.event(1100.5);  // 80 s away: not counted
  t.event(1130.5);
  t.event(1190.5);  // exactly the threshold: idle, not counted
  t.event(1190.75);
  EXPECT_DOUBLE_EQ(t.activeSeconds(), 10.0 + 10.5 + 30.0 + 0.25);
  EXPECT_EQ(t.events(), 7u);
  t.reset();
  EXPECT_EQ(t.activeSeconds(), 0.0);
  EXPECT_EQ(t.events(), 0u);
  t.event(5.0);
  t.event(6.0);
  EXPECT_DOUBLE_EQ(t.activeSeconds(), 1.0);
}

TEST(ActiveTimeTracker, OtherThresholdsAndEventsOutOfOrder) {
  ActiveTimeTracker t(5.0);
  t.event(0.0);
  t.event(4.0);
  t.event(3.0);  // earlier than the latest: nothing, and the latest stays 4
  t.event(8.0);
  t.event(14.0);  // 6 s: idle
  EXPECT_DOUBLE_EQ(t.activeSeconds(), 8.0);
  EXPECT_EQ(t.events(), 5u);
}

TEST(ActiveTimeTracker, TakesSteadyClockTimes) {
  using namespace std::chrono_literals;
  const auto t0 = std::chrono::steady_clock::time_point(1234567s);
  ActiveTimeTracker t;
  t.event(t0);
  t.event(t0 + 5s);
  t.event(t0 + 2min);  // 115 s: idle
  t.event(t0 + 2min + 1500ms);
  EXPECT_NEAR(t.activeSeconds(), 6.5, 1e-9);
}
