#pragma once
// How fast a topic is read and when it will have caught up (docs/admin-api.md, /status's
// records_per_second, backlog_records, catching_up, eta_seconds, progress_percent). Pure
// arithmetic over samples the materializer takes about once a second, so it is unit-tested
// without a broker.
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace floe::pipeline {

// Records per second over the last `window`, from samples of a running total (a counter).
class RateMeter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RateMeter(std::chrono::milliseconds window = std::chrono::seconds(10)) : window_(window) {}
  void Sample(Clock::time_point now, std::int64_t total);
  // 0 until two samples are at least 0.5 s apart.
  double PerSecond() const;

 private:
  std::chrono::milliseconds window_;
  std::deque<std::pair<Clock::time_point, std::int64_t>> samples_;
};

struct Progress {
  bool catching_up = false;
  std::optional<double> eta_seconds;       // catching up at a known rate
  std::optional<double> progress_percent;  // catching up: share of the backlog read since it began
  std::int64_t records_since_start = 0;    // catching up: records read since it began
};

// A topic starts catching up when its backlog (records in Kafka not read yet) is more than
// kCatchUpSeconds of reading at the current rate; a backlog read within a moment or two is a
// live topic keeping up, not a backfill. It stays catching up until the backlog is down to
// kCaughtUpSeconds of reading, so a backfill's progress runs on to the end rather than
// stopping at 80%. Progress is measured against the backlog seen when catching up began (a
// growing backlog restarts the measure).
class CatchUp {
 public:
  static constexpr double kCatchUpSeconds = 5.0;
  static constexpr double kCaughtUpSeconds = 1.0;
  // `backlog`: nullopt while unknown (watermarks not read yet); `consumed`: the topic's running
  // count of records read.
  Progress Update(std::optional<std::int64_t> backlog, double records_per_second, std::int64_t consumed);

 private:
  std::optional<std::int64_t> start_backlog_;
  std::int64_t start_consumed_ = 0;
};

}  // namespace floe::pipeline
