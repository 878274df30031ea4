// The arithmetic behind /status's rate, catch-up, ETA and progress (pipeline/progress.h).
#include "floe/pipeline/progress.h"

#include <gtest/gtest.h>

namespace floe::pipeline {
namespace {

using namespace std::chrono_literals;

TEST(RateMeterTest, RateOverTheWindow) {
  RateMeter meter(10s);
  const auto t0 = RateMeter::Clock::time_point{} + 100s;
  meter.Sample(t0, 0);
  EXPECT_EQ(meter.PerSecond(), 0);  // one sample: no rate yet
  meter.Sample(t0 + 200ms, 100);
  EXPECT_EQ(meter.PerSecond(), 0);  // too short to say
  for (int s = 1; s <= 30; ++s) meter.Sample(t0 + std::chrono::seconds(s), 1000 * s);
  EXPECT_DOUBLE_EQ(meter.PerSecond(), 1000);
  // The rate follows a change within the window, not the whole history.
  for (int s = 31; s <= 45; ++s) meter.Sample(t0 + std::chrono::seconds(s), 30000 + 200 * (s - 30));
  EXPECT_DOUBLE_EQ(meter.PerSecond(), 200);
}

TEST(CatchUpTest, ABacklogReadInAMomentIsNotCatchingUp) {
  CatchUp c;
  EXPECT_FALSE(c.Update(std::nullopt, 0, 0).catching_up);  // unknown
  EXPECT_FALSE(c.Update(0, 0, 0).catching_up);
  EXPECT_FALSE(c.Update(400, 100, 0).catching_up);  // 4 s of reading
}

TEST(CatchUpTest, ProgressAndEtaAgainstTheBacklogWhenItBegan) {
  CatchUp c;
  auto p = c.Update(10000, 0, 0);  // nothing read yet: no ETA
  EXPECT_TRUE(p.catching_up);
  EXPECT_FALSE(p.eta_seconds.has_value());
  EXPECT_DOUBLE_EQ(*p.progress_percent, 0);
  p = c.Update(7500, 500, 2500);
  EXPECT_DOUBLE_EQ(*p.progress_percent, 25);
  EXPECT_DOUBLE_EQ(*p.eta_seconds, 15);
  EXPECT_EQ(p.records_since_start, 2500);
  // A growing backlog starts the measure again.
  p = c.Update(20000, 500, 3000);
  EXPECT_DOUBLE_EQ(*p.progress_percent, 0);
  EXPECT_EQ(p.records_since_start, 0);
  // Still catching up near the end (hysteresis): 3 s of reading left.
  p = c.Update(1500, 500, 21500);
  EXPECT_TRUE(p.catching_up);
  EXPECT_NEAR(*p.progress_percent, 92.5, 1e-9);
  // Caught up: no ETA, no progress.
  p = c.Update(100, 500, 23000);
  EXPECT_FALSE(p.catching_up);
  EXPECT_FALSE(p.eta_seconds.has_value());
  EXPECT_FALSE(p.progress_percent.has_value());
}

}  // namespace
}  // namespace floe::pipeline
