#pragma once
// Waiting for something unavailable without blocking: the caller records a failure, goes on
// with other work, and asks Waiting() before trying again. 0.5 s, 1 s, 2 s, … up to 30 s.
#include <algorithm>
#include <chrono>
#include <optional>

namespace floe {

class Backoff {
 public:
  using Clock = std::chrono::steady_clock;

  void Fail() {
    const int shift = attempt_ < 6 ? attempt_ : 6;
    until_ = Clock::now() + std::min(std::chrono::milliseconds(500LL << shift), std::chrono::milliseconds(30'000));
    ++attempt_;
  }
  void Succeed() { attempt_ = 0, until_.reset(); }
  bool Waiting() const { return until_ && Clock::now() < *until_; }
  // How long until the next try (zero when not waiting).
  std::chrono::milliseconds Remaining() const {
    if (!Waiting()) return std::chrono::milliseconds(0);
    return std::chrono::duration_cast<std::chrono::milliseconds>(*until_ - Clock::now());
  }

 private:
  int attempt_ = 0;
  std::optional<Clock::time_point> until_;
};

}  // namespace floe
