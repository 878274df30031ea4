#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>

#include "floe/core/version.h"
#include "floe/pipeline/materializer_internal.h"

namespace floe::pipeline {

namespace {

// RFC 3339 in UTC, to the second: "2026-12-05T08:01:02Z".
std::string UtcTime(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double SecondsSince(std::chrono::system_clock::time_point t) {
  return std::max(0.0, std::chrono::duration<double>(std::chrono::system_clock::now() - t).count());
}

// Records in Kafka the partition has not read yet; nullopt while its watermarks are unknown.
std::optional<std::int64_t> Backlog(const PartitionState& state) {
  if (!state.high_watermark || !state.buffer) return std::nullopt;
  const std::int64_t position = state.buffer->next_offset().value_or(state.low_watermark.value_or(0));
  return std::max<std::int64_t>(0, *state.high_watermark - position);
}

// High watermark minus committed offset: what is in Kafka and not yet in the table.
std::optional<std::int64_t> Lag(const PartitionState& state) {
  if (!state.high_watermark || !state.buffer) return std::nullopt;
  const std::int64_t committed = state.buffer->committed().value_or(state.low_watermark.value_or(0));
  return std::max<std::int64_t>(0, *state.high_watermark - committed);
}

nlohmann::json OrNull(const std::optional<std::int64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

}  // namespace

void Materializer::Impl::UpdateLag() {
  const auto record = [&](const std::string& name, std::int32_t p, PartitionState& state,
                          std::pair<std::int64_t, std::int64_t> marks) {
    state.high_watermark = marks.second;
    state.low_watermark = marks.first;
    const std::int64_t committed = state.buffer->committed().value_or(marks.first);
    auto& gauge = metrics_.GetGauge("floe_partition_lag",
                                    "Records in Kafka not yet committed to the table (high watermark minus committed offset)",
                                    {{"topic", name}, {"partition", std::to_string(p)}});
    gauge.Set(static_cast<double>(std::max<std::int64_t>(0, marks.second - committed)));
  };
  // Most partitions' watermarks come with their fetch responses (CachedWatermarks); the others
  // (not fetched yet) are asked for together, one request per leader broker: a round trip per
  // partition held the loop up for 1.4 s at 1,000 partitions.
  std::vector<kafka::TopicPartition> uncached;
  std::vector<PartitionState*> uncached_states;
  for (auto& [name, topic] : topics_) {
    for (auto& [p, state] : topic->partitions) {
      if (!state.buffer) continue;
      if (auto cached = consumer_->CachedWatermarks(name, p)) {
        record(name, p, state, *cached);
      } else {
        uncached.push_back({name, p, 0});
        uncached_states.push_back(&state);
      }
    }
  }
  if (uncached.empty()) return;
  auto asked = consumer_->WatermarksOf(uncached, std::chrono::seconds(2));
  if (!asked.ok()) return;  // the brokers are not answering: the next round asks again
  for (std::size_t i = 0; i < uncached.size(); ++i) {
    record(uncached[i].topic, uncached[i].partition, *uncached_states[i], (*asked)[i]);
  }
}

bool Materializer::Impl::WatermarksUnknown() const {
  for (const auto& [name, topic] : topics_) {
    if (topic->suspended) continue;
    for (const auto& [p, state] : topic->partitions) {
      if (state.buffer && !state.high_watermark) return true;
    }
  }
  return false;
}

void Materializer::Impl::LogProgress() const {
  for (const auto& [name, topic] : topics_) {
    const Progress& progress = topic->progress;
    if (!progress.catching_up || topic->suspended) continue;
    std::int64_t backlog = 0;
    for (const auto& [p, state] : topic->partitions) backlog += Backlog(state).value_or(0);
    const double rate = topic->read_rate.PerSecond();
    spdlog::info("{}: catching up: {} records read, {:.0f}% of the backlog, {:.0f} records/s, {} to go, ETA {}", name,
                 progress.records_since_start, progress.progress_percent.value_or(0), rate, backlog,
                 progress.eta_seconds ? std::to_string(static_cast<std::int64_t>(*progress.eta_seconds + 0.5)) + " s"
                                      : std::string("unknown"));
  }
}

bool Materializer::Impl::CaughtUp() {
  for (auto& [name, topic] : topics_) {
    if (topic->suspended) continue;
    if (!topic->targets) return false;
    bool need_table = false;
    for (const auto& [p, range] : *topic->targets) {
      const auto [low, high] = range;
      if (high <= low) continue;  // nothing to read
      auto mine = topic->partitions.find(p);
      if (mine != topic->partitions.end() && mine->second.buffer) {
        if (mine->second.buffer->committed().value_or(-1) < high) return false;
        continue;
      }
      if (sink::Find(topic->table_offsets, name, p).value_or(-1) < high) need_table = true;
    }
    if (!need_table) continue;
    // Partitions other members own: the table tells whether they are done.
    if (topic->in_flight || Clock::now() - topic->table_offsets_at < std::chrono::seconds(1)) return false;
    topic->table_offsets_at = Clock::now();
    auto offsets = topic->table->LoadOffsets();
    if (!offsets.ok()) return false;
    topic->table_offsets = *offsets;
    for (const auto& [p, range] : *topic->targets) {
      if (range.second > range.first && sink::Find(topic->table_offsets, name, p).value_or(-1) < range.second) return false;
    }
  }
  return true;
}

void Materializer::Impl::PublishStatus() {
  nlohmann::json topics = nlohmann::json::array();
  const auto now = Clock::now();
  for (auto& [name, topic_ptr] : topics_) {
    TopicState* topic = topic_ptr.get();
    nlohmann::json partitions = nlohmann::json::array();
    bool waiting = false;
    std::optional<std::int64_t> backlog;
    for (const auto& [p, state] : topic->partitions) {
      if (auto b = Backlog(state)) backlog = backlog.value_or(0) + *b;
    }
    topic->read_rate.Sample(now, topic->metrics.consumed->value());
    const double rate = topic->read_rate.PerSecond();
    topic->metrics.records_per_second->Set(rate);
    topic->progress = topic->suspended ? Progress{} : topic->catch_up.Update(backlog, rate, topic->metrics.consumed->value());
    std::optional<double> freshness;
    if (topic->newest_committed_ms) {
      const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch()).count();
      freshness = std::max<double>(0, static_cast<double>(now_ms - *topic->newest_committed_ms) / 1000.0);
      if (topic->table_metrics.freshness == nullptr) {
        topic->table_metrics.freshness = &metrics_.GetGauge(
            "floe_table_freshness_seconds", "Now minus the Kafka timestamp of the newest record committed to the table",
            {{"table", topic->table->name()}});
      }
      topic->table_metrics.freshness->Set(*freshness);
    }
    for (const auto& [p, state] : topic->partitions) {
      nlohmann::json j = {{"partition", p}};
      const auto committed = state.buffer ? state.buffer->committed() : std::nullopt;
      j["committed_offset"] = committed ? nlohmann::json(*committed) : nlohmann::json(nullptr);
      j["next_offset"] = state.buffer && state.buffer->next_offset() ? nlohmann::json(*state.buffer->next_offset())
                                                                       : nlohmann::json(nullptr);
      j["buffered_records"] = state.buffer ? state.buffer->buffered_rows() : 0;
      j["buffered_bytes"] = state.buffer ? state.buffer->buffered_bytes() : 0;
      if (state.high_watermark) j["high_watermark"] = *state.high_watermark;
      j["lag"] = OrNull(Lag(state));
      j["backlog_records"] = OrNull(Backlog(state));
      j["phase"] = std::string(PartitionPhaseName(state.phase));
      if (!state.waiting_reason.empty()) {  // until the record it waits for goes through
        j["waiting"] = state.waiting_reason;
        waiting = true;
      }
      if (state.phase == PartitionPhase::kRecovering) j["recovering"] = true;
      partitions.push_back(std::move(j));
    }
    nlohmann::json t = {{"topic", name},
                        {"table", topic->table->name()},
                        {"state", topic->suspended ? "suspended" : waiting ? "waiting" : "running"},
                        {"error_mode", topic->config.error_mode == ErrorMode::kSkip   ? "skip"
                                       : topic->config.error_mode == ErrorMode::kDlq ? "dlq"
                                                                                     : "suspend"},
                        {"partitions", std::move(partitions)}};
    t["error"] = topic->suspended ? nlohmann::json{{"position", topic->suspended_position},
                                                   {"reason", topic->suspended_reason}}
                                  : nlohmann::json(nullptr);
    if (!topic->commit_error.empty()) t["commit_error"] = topic->commit_error;
    t["records_per_second"] = rate;
    const auto held = std::count_if(topic->partitions.begin(), topic->partitions.end(), [](const auto& entry) {
      return entry.second.phase == PartitionPhase::kWaiting || entry.second.phase == PartitionPhase::kRecovering;
    });
    metrics_
        .GetGauge("floe_partitions_waiting",
                  "Partitions held back until a dependency answers again (Schema Registry, catalog, dead-letter "
                  "topic); retried with backoff",
                  {{"topic", name}})
        .Set(static_cast<double>(held));
    t["freshness_seconds"] = freshness ? nlohmann::json(*freshness) : nlohmann::json(nullptr);
    t["backlog_records"] = OrNull(backlog);
    t["catching_up"] = topic->progress.catching_up;
    if (topic->progress.catching_up) {
      t["progress_percent"] = topic->progress.progress_percent.value_or(0);
      t["eta_seconds"] = topic->progress.eta_seconds ? nlohmann::json(*topic->progress.eta_seconds) : nlohmann::json(nullptr);
    }
    if (topic->last_commit) {
      t["last_commit"] = {{"time", UtcTime(topic->last_commit->at)},
                          {"age_seconds", SecondsSince(topic->last_commit->at)},
                          {"snapshot_id", topic->last_commit->snapshot_id},
                          {"rows", topic->last_commit->rows},
                          {"duration_seconds", topic->last_commit->duration_seconds}};
    } else {
      t["last_commit"] = nullptr;
    }
    t["files_committed"] = topic->files_committed;
    topics.push_back(std::move(t));
  }
  // The brokers' reachability as the consumer last saw it (kafka::GroupConsumer::Outage).
  const auto outage = consumer_->Outage();
  metrics_.GetGauge("floe_kafka_brokers_reachable", "1 while the Kafka brokers are reachable, 0 while all are down")
      .Set(outage ? 0 : 1);
  // Counted by the consumer; the counter follows it (Increment drops a step back, which a
  // second /status thread racing this one could otherwise take).
  const std::int64_t forced = consumer_->StrandedPartitionRebalances();
  auto& forced_total = metrics_.GetCounter("floe_kafka_stranded_partition_rebalances_total",
                                           "Rebalances this worker made its consumer group do because partitions of "
                                           "its topics had no owner");
  forced_total.Increment(forced - forced_total.value());
  nlohmann::json kafka = {{"state", outage ? "unreachable" : "connected"}, {"stranded_partition_rebalances", forced}};
  if (outage) {
    kafka["error"] = outage->reason;
    kafka["unreachable_seconds"] = SecondsSince(outage->since);
  }
  nlohmann::json status = {
      {"version", kVersion},
      {"uptime_seconds", std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count()},
      {"group_id", config_.kafka.group_id},
      {"instance_id", config_.kafka.instance_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(config_.kafka.instance_id)},
      {"kafka", std::move(kafka)},
      {"topics", std::move(topics)}};
  std::lock_guard lock(status_mu_);
  status_ = std::move(status);
}

}  // namespace floe::pipeline
