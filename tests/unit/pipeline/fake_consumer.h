#pragma once
// A kafka::GroupConsumer without a broker, for driving the materializer in unit tests
// (STYLE.md, "Fakes at the seams"). It keeps the contract documented on kafka::Consumer
// (consumer.h), the parts the materializer relies on:
//   - rebalances run inside Poll() (and Close()), on the polling thread: a test schedules
//     them, the next Poll() calls the listener;
//   - OnAssigned chooses where each partition starts through tp.offset; the partitions are
//     assigned only once it returns, so Pause / Resume / Seek on them inside the callback fail
//     like librdkafka's ("Unknown partition"), and so does any call on a partition not assigned;
//   - paused partitions return nothing; Resume continues at the next record not yet returned,
//     or where a Seek moved the partition; a Seek drops nothing else and returns no stale
//     record;
//   - Close() revokes the whole assignment (lost=false) before returning.
// Each partition's log is [low, high) with low = 0: records are produced with consecutive
// offsets. Everything the materializer asked for is recorded for the test to check. All
// calls are thread-safe: the test produces and inspects while the materializer polls.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "floe/kafka/group_consumer.h"
#include "floe/kafka/record.h"

namespace floe::pipeline::fakes {

// "orders/3@42": how the fake names partitions and positions in its logs.
inline std::string PositionName(const std::string& topic, std::int32_t partition, std::int64_t offset) {
  return topic + "/" + std::to_string(partition) + "@" + std::to_string(offset);
}

// The value the fake gives the record at `offset` when none is passed to Produce: a test can
// tell from a table's row which record it came from.
inline std::string DefaultValue(const std::string& topic, std::int32_t partition, std::int64_t offset) {
  return "value of " + PositionName(topic, partition, offset);
}

class FakeConsumer final : public kafka::GroupConsumer {
 public:
  using TP = std::pair<std::string, std::int32_t>;

  // --- Setting up the "cluster" (test thread) ----------------------------------------------

  // Creates the topic's partitions (empty) if they do not exist yet.
  void AddTopic(const std::string& topic, std::int32_t partitions) {
    std::lock_guard lock(mu_);
    for (std::int32_t p = 0; p < partitions; ++p) logs_[{topic, p}];
  }

  // Appends one record; returns its offset.
  std::int64_t Produce(const std::string& topic, std::int32_t partition, std::optional<std::string> value,
                       std::optional<std::string> key = std::nullopt) {
    std::int64_t offset = 0;
    {
      std::lock_guard lock(mu_);
      auto& log = logs_[{topic, partition}];
      offset = static_cast<std::int64_t>(log.size());
      kafka::RecordData r;
      r.topic = topic;
      r.partition = partition;
      r.offset = offset;
      r.timestamp_ms = 1'700'000'000'000 + offset;
      r.key = std::move(key);
      r.value = std::move(value);
      log.push_back(std::move(r));
    }
    cv_.notify_all();
    return offset;
  }

  // Appends `n` records with DefaultValue values.
  void ProduceN(const std::string& topic, std::int32_t partition, int n) {
    for (int i = 0; i < n; ++i) {
      const std::int64_t offset = High(topic, partition);
      Produce(topic, partition, DefaultValue(topic, partition, offset));
    }
  }

  // Subscribe() normally schedules the assignment of every partition of the subscribed topics
  // (one member alone in its group); off, only ScheduleAssign assigns.
  void set_assign_on_subscribe(bool on) {
    std::lock_guard lock(mu_);
    assign_on_subscribe_ = on;
  }

  // The next Poll() runs OnAssigned / OnRevoked with these partitions (offsets ignored).
  void ScheduleAssign(std::vector<kafka::TopicPartition> partitions) {
    Schedule({Event::kAssign, std::move(partitions), false});
  }
  void ScheduleRevoke(std::vector<kafka::TopicPartition> partitions, bool lost) {
    Schedule({Event::kRevoke, std::move(partitions), lost});
  }

  // --- What happened (any thread) -----------------------------------------------------------

  // Where OnAssigned made each partition start (tp.offset as the listener left it), in order.
  std::vector<kafka::TopicPartition> start_offsets() const { return Locked(start_offsets_); }
  std::vector<kafka::TopicPartition> seeks() const { return Locked(seeks_); }
  std::vector<kafka::TopicPartition> paused() const { return Locked(paused_); }
  std::vector<kafka::TopicPartition> resumed() const { return Locked(resumed_); }
  std::vector<kafka::TopicPartition> group_commits() const { return Locked(group_commits_); }
  // Calls the real consumer would have refused (a partition not assigned, after Close).
  std::vector<std::string> misuse() const { return Locked(misuse_); }
  int rebalances_done() const { return Locked(rebalances_done_); }
  std::int64_t delivered() const { return Locked(delivered_); }
  bool closed() const { return Locked(closed_); }

  std::int64_t High(const std::string& topic, std::int32_t partition) const {
    std::lock_guard lock(mu_);
    auto it = logs_.find({topic, partition});
    return it == logs_.end() ? 0 : static_cast<std::int64_t>(it->second.size());
  }
  // The assigned partition's next offset to return; nullopt when not assigned.
  std::optional<std::int64_t> Position(const std::string& topic, std::int32_t partition) const {
    std::lock_guard lock(mu_);
    auto it = assigned_.find({topic, partition});
    if (it == assigned_.end()) return std::nullopt;
    return it->second.position;
  }
  bool IsPaused(const std::string& topic, std::int32_t partition) const {
    std::lock_guard lock(mu_);
    auto it = assigned_.find({topic, partition});
    return it != assigned_.end() && it->second.paused;
  }
  // Every assigned partition has returned all its records (paused or not).
  bool AllDelivered() const {
    std::lock_guard lock(mu_);
    for (const auto& [tp, a] : assigned_) {
      if (a.position < static_cast<std::int64_t>(logs_.at(tp).size())) return false;
    }
    return events_.empty();
  }

  // --- kafka::GroupConsumer ----------------------------------------------------------------

  Status Subscribe(const std::vector<std::string>& topics, kafka::RebalanceListener* listener) override {
    std::lock_guard lock(mu_);
    if (closed_) return Misuse("Subscribe after Close");
    listener_ = listener;
    subscriptions_ = topics;
    if (assign_on_subscribe_) {
      std::vector<kafka::TopicPartition> all;
      for (const auto& [tp, log] : logs_) {
        if (Subscribed(tp.first)) all.push_back({tp.first, tp.second, 0});
      }
      if (!all.empty()) events_.push_back({Event::kAssign, std::move(all), false});
    }
    return Status::OK();
  }

  Status Pause(const std::vector<kafka::TopicPartition>& partitions) override {
    std::lock_guard lock(mu_);
    for (const auto& tp : partitions) {
      auto* a = Find(tp, "Pause");
      if (a == nullptr) return Status::InvalidArgument("Pause " + Name(tp) + ": Unknown partition");
      a->paused = true;
      paused_.push_back(tp);
    }
    return Status::OK();
  }

  Status Resume(const std::vector<kafka::TopicPartition>& partitions) override {
    {
      std::lock_guard lock(mu_);
      for (const auto& tp : partitions) {
        auto* a = Find(tp, "Resume");
        if (a == nullptr) return Status::InvalidArgument("Resume " + Name(tp) + ": Unknown partition");
        a->paused = false;
        resumed_.push_back(tp);
      }
    }
    cv_.notify_all();
    return Status::OK();
  }

  Status Seek(const kafka::TopicPartition& tp, std::chrono::milliseconds /*timeout*/) override {
    {
      std::lock_guard lock(mu_);
      auto* a = Find(tp, "Seek");
      if (a == nullptr) return Status::InvalidArgument("Seek " + Name(tp) + ": Unknown partition");
      a->position = Resolve({tp.topic, tp.partition}, tp.offset);
      seeks_.push_back(tp);
    }
    cv_.notify_all();
    return Status::OK();
  }

  Status CommitOffsets(const std::vector<kafka::TopicPartition>& partitions) override {
    std::lock_guard lock(mu_);
    if (closed_) return Misuse("CommitOffsets after Close");
    for (const auto& tp : partitions) {
      group_committed_[{tp.topic, tp.partition}] = tp.offset;
      group_commits_.push_back(tp);
    }
    return Status::OK();
  }

  std::vector<kafka::TopicPartition> Assignment() const override {
    std::lock_guard lock(mu_);
    std::vector<kafka::TopicPartition> out;
    for (const auto& [tp, a] : assigned_) out.push_back({tp.first, tp.second, 0});
    return out;
  }

  Result<std::vector<std::int32_t>> Partitions(const std::string& topic, std::chrono::milliseconds) override {
    std::lock_guard lock(mu_);
    std::vector<std::int32_t> out;
    for (const auto& [tp, log] : logs_) {
      if (tp.first == topic) out.push_back(tp.second);
    }
    if (out.empty()) return Status::NotFound("topic '" + topic + "' does not exist");
    return out;
  }

  Result<std::pair<std::int64_t, std::int64_t>> Watermarks(const std::string& topic, std::int32_t partition,
                                                           std::chrono::milliseconds) override {
    std::lock_guard lock(mu_);
    auto it = logs_.find({topic, partition});
    if (it == logs_.end()) return Status::NotFound(Name({topic, partition, 0}) + " does not exist");
    return std::pair<std::int64_t, std::int64_t>{0, static_cast<std::int64_t>(it->second.size())};
  }

  Result<std::optional<kafka::Record>> Poll(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mu_);
    if (closed_) return Misuse("Poll after Close");
    cv_.wait_for(lock, timeout, [&] { return !events_.empty() || HasNext(); });
    if (!events_.empty()) {
      Event event = std::move(events_.front());
      events_.pop_front();
      lock.unlock();
      Deliver(event);
      return std::optional<kafka::Record>();
    }
    if (auto* next = Next()) {
      Assigned& a = assigned_.at(next->first);
      kafka::RecordData data = logs_.at(next->first)[static_cast<std::size_t>(a.position)];
      ++a.position;
      ++delivered_;
      return std::optional<kafka::Record>(kafka::Record(std::move(data)));
    }
    return std::optional<kafka::Record>();
  }

  Status Close() override {
    std::vector<kafka::TopicPartition> all;
    {
      std::lock_guard lock(mu_);
      if (closed_) return Status::OK();
      for (const auto& [tp, a] : assigned_) all.push_back({tp.first, tp.second, 0});
    }
    if (!all.empty()) Deliver({Event::kRevoke, std::move(all), false});
    std::lock_guard lock(mu_);
    closed_ = true;
    return Status::OK();
  }

 private:
  struct Event {
    enum Kind { kAssign, kRevoke } kind;
    std::vector<kafka::TopicPartition> partitions;
    bool lost = false;
  };
  struct Assigned {
    std::int64_t position = 0;
    bool paused = false;
  };
  using Log = std::vector<kafka::RecordData>;

  template <typename T>
  T Locked(const T& field) const {
    std::lock_guard lock(mu_);
    return field;
  }

  static std::string Name(const kafka::TopicPartition& tp) { return tp.topic + "/" + std::to_string(tp.partition); }

  void Schedule(Event event) {
    {
      std::lock_guard lock(mu_);
      events_.push_back(std::move(event));
    }
    cv_.notify_all();
  }

  bool Subscribed(const std::string& topic) const {
    for (const auto& s : subscriptions_) {
      const bool pattern = !s.empty() && s.front() == '^';
      if (pattern ? std::regex_search(topic, std::regex(s)) : s == topic) return true;
    }
    return false;
  }

  Status Misuse(std::string what) {
    misuse_.push_back(what);
    return Status::InvalidArgument(std::move(what));
  }

  Assigned* Find(const kafka::TopicPartition& tp, const char* op) {
    auto it = assigned_.find({tp.topic, tp.partition});
    if (it == assigned_.end() || closed_) {
      misuse_.push_back(std::string(op) + " " + Name(tp) + (closed_ ? " after Close" : ": not assigned"));
      return nullptr;
    }
    return &it->second;
  }

  // A logical or absolute offset as a position in the log (auto.offset.reset=earliest).
  std::int64_t Resolve(const TP& tp, std::int64_t offset) const {
    if (offset >= 0) return offset;
    if (offset == kafka::kOffsetCommitted) {
      auto it = group_committed_.find(tp);
      return it == group_committed_.end() ? 0 : it->second;
    }
    if (offset == kafka::kOffsetBeginning) return 0;
    auto it = logs_.find(tp);
    return it == logs_.end() ? 0 : static_cast<std::int64_t>(it->second.size());  // OFFSET_END
  }

  bool HasNext() const {
    for (const auto& [tp, a] : assigned_) {
      if (!a.paused && a.position < static_cast<std::int64_t>(logs_.at(tp).size())) return true;
    }
    return false;
  }

  // The partition whose record Poll returns next: round robin over the assigned, unpaused
  // partitions that have one.
  const std::pair<const TP, Assigned>* Next() {
    std::vector<const std::pair<const TP, Assigned>*> ready;
    for (const auto& entry : assigned_) {
      const auto& log = logs_.at(entry.first);
      if (!entry.second.paused && entry.second.position < static_cast<std::int64_t>(log.size())) ready.push_back(&entry);
    }
    if (ready.empty()) return nullptr;
    return ready[round_robin_++ % ready.size()];
  }

  // Runs a rebalance callback without the lock (the listener calls back into Seek, Pause, …).
  void Deliver(Event event) {
    kafka::RebalanceListener* listener = nullptr;
    {
      std::lock_guard lock(mu_);
      listener = listener_;
    }
    if (event.kind == Event::kAssign) {
      for (auto& tp : event.partitions) tp.offset = kafka::kOffsetCommitted;
      if (listener != nullptr) listener->OnAssigned(event.partitions);
      std::lock_guard lock(mu_);
      for (const auto& tp : event.partitions) {
        start_offsets_.push_back(tp);
        assigned_[{tp.topic, tp.partition}] = Assigned{Resolve({tp.topic, tp.partition}, tp.offset), false};
      }
    } else {
      if (listener != nullptr) listener->OnRevoked(event.partitions, event.lost);
      std::lock_guard lock(mu_);
      for (const auto& tp : event.partitions) assigned_.erase({tp.topic, tp.partition});
    }
    std::lock_guard lock(mu_);
    ++rebalances_done_;
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<TP, Log> logs_;
  std::map<TP, Assigned> assigned_;
  std::map<TP, std::int64_t> group_committed_;
  std::deque<Event> events_;
  kafka::RebalanceListener* listener_ = nullptr;
  std::vector<std::string> subscriptions_;
  bool assign_on_subscribe_ = true;
  bool closed_ = false;
  std::size_t round_robin_ = 0;

  std::vector<kafka::TopicPartition> start_offsets_;
  std::vector<kafka::TopicPartition> seeks_;
  std::vector<kafka::TopicPartition> paused_;
  std::vector<kafka::TopicPartition> resumed_;
  std::vector<kafka::TopicPartition> group_commits_;
  std::vector<std::string> misuse_;
  int rebalances_done_ = 0;
  std::int64_t delivered_ = 0;
};

}  // namespace floe::pipeline::fakes
