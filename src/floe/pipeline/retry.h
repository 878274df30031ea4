#pragma once
// The optimistic-concurrency retry policy the table writers share.
#include <chrono>
#include <thread>

namespace floe::pipeline {

inline constexpr int kMaxConflictRetries = 20;
inline constexpr int kMaxUnavailableRetries = 8;

// Sleeps 50 ms, 100 ms, … capped at 3.2 s: conflicts resolve fast, outages take longer.
inline void SleepBeforeRetry(int attempt) {
  const int shift = attempt < 6 ? attempt : 6;
  std::this_thread::sleep_for(std::chrono::milliseconds(50LL << shift));
}

}  // namespace floe::pipeline
