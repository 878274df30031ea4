#pragma once
// The last hour of each topic's state, lag, freshness and throughput, kept in memory for the
// web console's sparklines (console_routes.h, docs/console.md). Prometheus keeps the real
// history; this ring only lets an operator without one see the recent trend.
//
// A sample is taken from a /status-shaped JSON document (docs/admin-api.md): per topic the
// state, the lag summed over its partitions (high watermark minus committed offset), the
// freshness and records/s when /status carries them. When /status has no records/s, the
// throughput is derived from how far the committed offsets moved since the previous sample,
// which is what "records/s into the table" means. A topic missing from a sample (not
// assigned any more) has null values there, so all series share one time axis.
//
// Thread-safe: Record on the sampler's thread, ToJson on HTTP worker threads.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace floe::server {

class StatusHistory {
 public:
  // Keeps `capacity` samples: with one every `interval`, capacity * interval of history.
  StatusHistory(std::size_t capacity, std::chrono::milliseconds interval);

  // Adds the sample taken at `unix_seconds` from `status` (the GET /status body), dropping
  // the oldest once full. Samples must come in time order; one not after the last is ignored.
  void Record(double unix_seconds, const nlohmann::json& status);

  // {"interval_seconds", "capacity", "t": [unix seconds…],
  //  "topics": {"<topic>": {"state": […], "lag": […], "records_per_second": […],
  //                         "freshness_seconds": […]}}}: every array as long as "t", oldest
  // first, null where the topic was absent or the value unknown.
  nlohmann::json ToJson() const;

  std::size_t size() const;

 private:
  struct TopicPoint {
    std::string state;
    double lag = 0;
    std::optional<double> committed;  // sum of committed offsets, for the derived rate
    std::optional<double> records_per_second;
    std::optional<double> freshness_seconds;
  };
  struct Sample {
    double t = 0;
    std::map<std::string, TopicPoint> topics;
  };

  const std::size_t capacity_;
  const std::chrono::milliseconds interval_;
  mutable std::mutex mu_;
  std::vector<Sample> ring_;  // ring_[(start_ + i) % capacity_] is the i-th oldest
  std::size_t start_ = 0;
};

// Calls `sample` every `interval` on its own thread until destroyed (or Stop). The first
// sample is taken at once, so the console has a point as soon as the process serves.
class PeriodicSampler {
 public:
  PeriodicSampler(std::chrono::milliseconds interval, std::function<void()> sample);
  ~PeriodicSampler();
  PeriodicSampler(const PeriodicSampler&) = delete;
  PeriodicSampler& operator=(const PeriodicSampler&) = delete;
  void Stop();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace floe::server
