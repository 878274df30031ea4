#include "floe/server/status_history.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

namespace floe::server {
namespace {

using nlohmann::json;

std::optional<double> Number(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

json OrNull(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

StatusHistory::StatusHistory(std::size_t capacity, std::chrono::milliseconds interval)
    : capacity_(std::max<std::size_t>(capacity, 2)), interval_(interval) {
  ring_.reserve(capacity_);
}

void StatusHistory::Record(double unix_seconds, const json& status) {
  Sample sample;
  sample.t = unix_seconds;
  const auto topics = status.find("topics");
  if (topics != status.end() && topics->is_array()) {
    for (const auto& topic : *topics) {
      if (!topic.is_object() || !topic.contains("topic") || !topic["topic"].is_string()) continue;
      TopicPoint point;
      if (topic.contains("state") && topic["state"].is_string()) point.state = topic["state"].get<std::string>();
      point.records_per_second = Number(topic, "records_per_second");
      point.freshness_seconds = Number(topic, "freshness_seconds");
      double committed = 0;
      bool all_committed = true;
      if (topic.contains("partitions") && topic["partitions"].is_array()) {
        for (const auto& p : topic["partitions"]) {
          const auto c = Number(p, "committed_offset");
          const auto hw = Number(p, "high_watermark");
          if (c) committed += *c; else all_committed = false;
          if (c && hw) point.lag += std::max(0.0, *hw - *c);
        }
      }
      // A partition without a committed offset yet would make the sum jump when it gets one.
      if (all_committed) point.committed = committed;
      sample.topics[topic["topic"].get<std::string>()] = std::move(point);
    }
  }
  std::lock_guard lock(mu_);
  if (!ring_.empty()) {
    const Sample& last = ring_[(start_ + ring_.size() - 1) % capacity_];
    if (unix_seconds <= last.t) return;
    // Derived throughput: committed records per second since the previous sample.
    for (auto& [name, point] : sample.topics) {
      if (point.records_per_second) continue;
      auto prev = last.topics.find(name);
      if (prev == last.topics.end() || !prev->second.committed || !point.committed) continue;
      point.records_per_second = std::max(0.0, *point.committed - *prev->second.committed) / (unix_seconds - last.t);
    }
  }
  if (ring_.size() < capacity_) {
    ring_.push_back(std::move(sample));
  } else {
    ring_[start_] = std::move(sample);
    start_ = (start_ + 1) % capacity_;
  }
}

std::size_t StatusHistory::size() const {
  std::lock_guard lock(mu_);
  return ring_.size();
}

json StatusHistory::ToJson() const {
  std::lock_guard lock(mu_);
  const std::size_t n = ring_.size();
  json t = json::array();
  std::map<std::string, json> topics;
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [name, _] : ring_[(start_ + i) % capacity_].topics) {
      if (!topics.count(name)) {
        topics[name] = {{"state", json::array()},
                        {"lag", json::array()},
                        {"records_per_second", json::array()},
                        {"freshness_seconds", json::array()}};
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Sample& sample = ring_[(start_ + i) % capacity_];
    t.push_back(sample.t);
    for (auto& [name, series] : topics) {
      auto it = sample.topics.find(name);
      if (it == sample.topics.end()) {
        for (auto& values : series) values.push_back(nullptr);
        continue;
      }
      const TopicPoint& p = it->second;
      series["state"].push_back(p.state.empty() ? json(nullptr) : json(p.state));
      series["lag"].push_back(p.lag);
      series["records_per_second"].push_back(OrNull(p.records_per_second));
      series["freshness_seconds"].push_back(OrNull(p.freshness_seconds));
    }
  }
  json out = {{"interval_seconds", interval_.count() / 1000.0},
              {"capacity", capacity_},
              {"t", std::move(t)},
              {"topics", json::object()}};
  for (auto& [name, series] : topics) out["topics"][name] = std::move(series);
  return out;
}

PeriodicSampler::PeriodicSampler(std::chrono::milliseconds interval, std::function<void()> sample) {
  thread_ = std::thread([this, interval, sample = std::move(sample)] {
    std::unique_lock lock(mu_);
    while (!stop_) {
      lock.unlock();
      try {
        sample();
      } catch (const std::exception& e) {  // a failing /status must not end the history
        spdlog::warn("console: status sample failed: {}", e.what());
      }
      lock.lock();
      cv_.wait_for(lock, interval, [this] { return stop_; });
    }
  });
}

PeriodicSampler::~PeriodicSampler() { Stop(); }

void PeriodicSampler::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace floe::server
