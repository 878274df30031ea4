// Operator commands on a suspended topic (docs/admin-api.md, "Resume and skip"). They arrive
// through the CommandQueue and run here, on the loop's thread, between records: the state they
// change is the loop's own, so no lock is involved.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "floe/pipeline/materializer_internal.h"

namespace floe::pipeline {

namespace {

std::string PositionOf(const std::string& topic, std::int32_t partition, std::int64_t offset) {
  return topic + "/" + std::to_string(partition) + "@" + std::to_string(offset);
}

}  // namespace

CommandResult Materializer::Impl::Apply(const OperatorCommand& command) {
  CommandResult result = Status::Internal("unknown operator command");
  switch (command.kind) {
    case OperatorCommand::Kind::kResume: result = ResumeTopic(command.topic); break;
    case OperatorCommand::Kind::kSkip: result = SkipRecord(command); break;
  }
  // /status shows the command's effect by the time the caller has the answer and looks.
  if (result.ok()) PublishStatus();
  return result;
}

std::vector<std::int32_t> Materializer::Impl::Unsuspend(TopicState& topic) {
  const std::string& name = topic.config.name;
  topic.suspended = false;
  topic.suspended_position.clear();
  topic.suspended_reason.clear();
  topic.suspended_record.reset();
  topic.commit_blocked = false;  // its buffers were dropped: the rows are read again
  topic.metrics.suspended->Set(0);
  // The run's summary lists topics still suspended when it ends (exit code 3).
  std::erase_if(summary_.suspended, [&](const std::string& s) { return s.rfind(name + ": ", 0) == 0; });
  std::erase_if(pending_pause_, [&](const kafka::TopicPartition& tp) { return tp.topic == name; });
  std::vector<std::int32_t> resumed;
  std::vector<kafka::TopicPartition> fetch;
  for (auto& [p, state] : topic.partitions) {
    if (state.phase != PartitionPhase::kSuspended) continue;
    resumed.push_back(p);
    state.waiting_reason.clear();
    if (!state.buffer) {  // suspended before the table said where it starts
      state.phase = PartitionPhase::kRecovering;
      continue;
    }
    // Records fetched after the suspension were dropped: read again from the first one not
    // buffered (the committed offset when nothing is buffered).
    const std::int64_t from = state.buffer->next_offset().value_or(kafka::kOffsetBeginning);
    if (auto st = consumer_->Seek({name, p, from}, kBrokerTimeout); !st.ok()) {
      // Where the consumer stands is unknown: start over from the table (RecoverPartitions).
      spdlog::warn("{}/{}: seek to {} on resume failed, re-reading from the table's offset: {}", name, p, from,
                   st.ToString());
      state.phase = PartitionPhase::kRecovering;
      state.retry.Fail();
      fetch.push_back({name, p, 0});
      continue;
    }
    state.phase = PartitionPhase::kReading;
    state.retry.Succeed();
    fetch.push_back({name, p, 0});
  }
  // Under back-pressure everything stays paused; ApplyBackPressure resumes unsuspended topics.
  if (!fetch_paused_ && !fetch.empty()) {
    if (auto st = consumer_->Resume(fetch); !st.ok()) spdlog::warn("{}: resume failed: {}", name, st.ToString());
  }
  return resumed;
}

CommandResult Materializer::Impl::ResumeTopic(const std::string& name) {
  auto it = topics_.find(name);
  if (it == topics_.end()) return Status::NotFound("topic '" + name + "' is not materialized by this process");
  TopicState& topic = *it->second;
  if (!topic.suspended) return Status::Conflict("topic '" + name + "' is not suspended");
  const std::string was = topic.suspended_position + ": " + topic.suspended_reason;
  auto resumed = Unsuspend(topic);
  spdlog::warn("resumed topic {} by operator request (it was suspended at {}); reading again from its committed offset",
               name, was);
  return nlohmann::json{{"topic", name}, {"resumed_partitions", resumed}};
}

CommandResult Materializer::Impl::SkipRecord(const OperatorCommand& command) {
  const std::string& name = command.topic;
  auto it = topics_.find(name);
  if (it == topics_.end()) return Status::NotFound("topic '" + name + "' is not materialized by this process");
  TopicState& topic = *it->second;
  if (!topic.suspended) return Status::Conflict("topic '" + name + "' is not suspended");
  const std::string asked = PositionOf(name, command.partition, command.offset);
  if (!topic.suspended_record || topic.commit_blocked) {
    return Status::Conflict("topic '" + name + "' is suspended at " + topic.suspended_position +
                            ", not at one record (" + topic.suspended_reason +
                            "): there is no record to skip; fix the cause and resume it");
  }
  const auto [partition, offset] = *topic.suspended_record;
  const std::string at = PositionOf(name, partition, offset);
  if (command.partition != partition || command.offset != offset) {
    return Status::Conflict("topic '" + name + "' is suspended at " + at + " (partition " + std::to_string(partition) +
                            ", offset " + std::to_string(offset) + "); a skip names exactly that record, not " + asked);
  }
  auto state = topic.partitions.find(partition);
  if (state == topic.partitions.end() || !state->second.buffer ||
      state->second.buffer->next_offset().value_or(-1) != offset) {
    return Status::Conflict(at + " is no longer this process's to skip (the partition was reassigned); resume the "
                            "topic, and skip the record where it suspends again");
  }
  state->second.buffer->SkipByOperator(offset);
  topic.metrics.skipped->Increment();
  ++summary_.records_skipped;
  spdlog::warn("skipped {} by operator request (it suspended the topic: {}); the next commit of {} records it in "
               "floe.skipped",
               at, topic.suspended_reason, topic.table->name());
  auto resumed = Unsuspend(topic);
  // Commit now, so the skip is in the table (and auditable) at once rather than after
  // commit_interval; a failed commit keeps it buffered for the next attempt.
  CommitTopic(topic, "operator skip");
  return nlohmann::json{{"topic", name},
                        {"partition", partition},
                        {"offset", offset},
                        {"skipped", true},
                        {"committed", !state->second.buffer->has_uncommitted()},
                        {"resumed_partitions", resumed}};
}

}  // namespace floe::pipeline
