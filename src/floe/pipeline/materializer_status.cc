#include "floe/core/version.h"
#include "floe/pipeline/materializer_internal.h"

namespace floe::pipeline {

void Materializer::Impl::UpdateLag() {
  for (auto& [name, topic] : topics_) {
    for (auto& [p, state] : topic->partitions) {
      if (!state.buffer) continue;
      auto marks = consumer_->Watermarks(name, p, std::chrono::seconds(2));
      if (!marks.ok()) continue;
      state.high_watermark = marks->second;
      const std::int64_t committed = state.buffer->committed().value_or(marks->first);
      auto& gauge = metrics_.GetGauge("floe_partition_lag",
                                      "Records in Kafka not yet committed to the table (high watermark minus committed offset)",
                                      {{"topic", name}, {"partition", std::to_string(p)}});
      gauge.Set(static_cast<double>(std::max<std::int64_t>(0, marks->second - committed)));
    }
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
    if (Clock::now() - topic->table_offsets_at < std::chrono::seconds(1)) return false;
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
  for (const auto& [name, topic] : topics_) {
    nlohmann::json partitions = nlohmann::json::array();
    bool waiting = false;
    for (const auto& [p, state] : topic->partitions) {
      nlohmann::json j = {{"partition", p}};
      const auto committed = state.buffer ? state.buffer->committed() : std::nullopt;
      j["committed_offset"] = committed ? nlohmann::json(*committed) : nlohmann::json(nullptr);
      j["next_offset"] = state.buffer && state.buffer->next_offset() ? nlohmann::json(*state.buffer->next_offset())
                                                                       : nlohmann::json(nullptr);
      j["buffered_records"] = state.buffer ? state.buffer->buffered_rows() : 0;
      j["buffered_bytes"] = state.buffer ? state.buffer->buffered_bytes() : 0;
      if (state.high_watermark) j["high_watermark"] = *state.high_watermark;
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
    topics.push_back(std::move(t));
  }
  nlohmann::json status = {
      {"version", kVersion},
      {"uptime_seconds", std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count()},
      {"group_id", config_.kafka.group_id},
      {"topics", std::move(topics)}};
  std::lock_guard lock(status_mu_);
  status_ = std::move(status);
}

}  // namespace floe::pipeline
