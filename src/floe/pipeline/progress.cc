#include "floe/pipeline/progress.h"

#include <algorithm>

namespace floe::pipeline {

void RateMeter::Sample(Clock::time_point now, std::int64_t total) {
  samples_.emplace_back(now, total);
  // Keep one sample at or before the window's start, so the rate spans the whole window.
  while (samples_.size() > 2 && now - samples_[1].first >= window_) samples_.pop_front();
}

double RateMeter::PerSecond() const {
  if (samples_.size() < 2) return 0;
  const auto& [t0, n0] = samples_.front();
  const auto& [t1, n1] = samples_.back();
  const double seconds = std::chrono::duration<double>(t1 - t0).count();
  if (seconds < 0.5) return 0;
  return std::max(0.0, static_cast<double>(n1 - n0) / seconds);
}

Progress CatchUp::Update(std::optional<std::int64_t> backlog, double records_per_second, std::int64_t consumed) {
  Progress out;
  const double threshold = start_backlog_ ? kCaughtUpSeconds : kCatchUpSeconds;
  out.catching_up = backlog && *backlog > 0 && static_cast<double>(*backlog) > records_per_second * threshold;
  if (!out.catching_up) {
    start_backlog_.reset();
    return out;
  }
  if (!start_backlog_ || *backlog > *start_backlog_) {
    start_backlog_ = *backlog;
    start_consumed_ = consumed;
  }
  out.records_since_start = consumed - start_consumed_;
  out.progress_percent = 100.0 * static_cast<double>(*start_backlog_ - *backlog) / static_cast<double>(*start_backlog_);
  if (records_per_second > 0) out.eta_seconds = static_cast<double>(*backlog) / records_per_second;
  return out;
}

}  // namespace floe::pipeline
