#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "floe/pipeline/dead_letter.h"
#include "floe/pipeline/materializer_internal.h"
#include "floe/pipeline/payload_formats.h"
#include "floe/pipeline/record_limits.h"

namespace floe::pipeline {

PartitionState* Materializer::Impl::ReadingPartition(const kafka::Record& record, TopicState*& topic) {
  auto it = topics_.find(record.topic());
  if (it == topics_.end()) return nullptr;
  topic = it->second.get();
  auto p = topic->partitions.find(record.partition());
  if (p == topic->partitions.end()) return nullptr;  // not (or no longer) ours
  PartitionState& state = p->second;
  if (topic->suspended || state.phase != PartitionPhase::kReading) return nullptr;
  // After a seek, records the consumer had already fetched may still arrive.
  const auto next = state.buffer->next_offset();
  if (next && record.offset() < *next) return nullptr;
  return &state;
}

void Materializer::Impl::Handle(kafka::Record record) {
  TopicState* topic = nullptr;
  PartitionState* state = ReadingPartition(record, topic);
  if (state == nullptr) return;
  // The plain path: a record that fits, whose schemas resolve and whose columns the table
  // holds is queued for the decode stage. Anything else is handled in record order.
  if (!CheckRecordSize(record, topic->config.max_record_size).ok()) return HandleNow(std::move(record));
  auto resolved = ResolveRecord(*topic, record);
  if (!resolved.ok() || topic->in_table.count(resolved->schema) == 0) return HandleNow(std::move(record));
  topic->metrics.consumed->Increment();
  state->retry.Succeed();
  state->waiting_reason.clear();
  queued_bytes_ += RecordBytes(record);
  const auto resets = state->buffer->resets();
  queued_.push_back(
      {std::move(record), resolved->schema, resolved->payload, resolved->key_payload, topic, state, resets});
}

Result<Materializer::Impl::ResolvedRecord> Materializer::Impl::ResolveRecord(TopicState& topic,
                                                                             const kafka::Record& record) {
  ResolvedRecord out{&topic.schemas->tombstone(), {}, record.key()};
  if (auto value = record.value()) {
    FLOE_ASSIGN_OR_RETURN(auto resolved, topic.schemas->Resolve(*value));
    out.schema = resolved.schema;
    out.payload = resolved.payload;
  }
  if (UsesSchemaRegistry(topic.config.key) && out.key_payload) {
    FLOE_ASSIGN_OR_RETURN(auto key, topic.schemas->ResolveKey(*out.key_payload));
    FLOE_ASSIGN_OR_RETURN(out.schema, topic.schemas->WithKey(out.schema, key.schema));
    out.key_payload = key.payload;
  }
  return out;
}

void Materializer::Impl::HandleNow(kafka::Record record, bool counted) {
  // What was read before this record goes first: the error policy and a table change apply
  // in record order, and may change what follows (a suspended topic, a partition sought back).
  Quiesce();
  TopicState* found = nullptr;
  PartitionState* reading = ReadingPartition(record, found);
  if (reading == nullptr) return;
  TopicState& topic = *found;
  PartitionState& state = *reading;
  if (!counted) topic.metrics.consumed->Increment();
  if (auto size = CheckRecordSize(record, topic.config.max_record_size); !size.ok()) {
    return BadRecord(topic, state, record, size);
  }

  auto resolved = ResolveRecord(topic, record);
  if (!resolved.ok()) return Fail(topic, state, record, resolved.status());
  const auto [schema, payload, key_payload] = *resolved;
  if (topic.in_table.count(schema) == 0) {
    auto change = topic.table->EnsureColumns(schema->table_columns);
    if (!change.ok()) {
      if (Classify(change.status()) == FailureKind::kRetryLater) return RetryLater(topic, state, record, change.status());
      // Not the record's fault (catalog or partition_by problem): stop the topic, whatever error_mode says.
      return SuspendAt(topic, record, change.status().ToString());
    }
    if (!change->record_error.ok()) return BadRecord(topic, state, record, change->record_error);
    if (!change->changes.empty()) topic.table_metrics.evolutions->Increment();
    topic.in_table.insert(schema);
    topic.schemas->Accepted(*schema);
  }
  auto appended = state.buffer->Append(record, *schema, payload, key_payload);
  if (!appended.ok()) return Fail(topic, state, record, appended);
  state.retry.Succeed();
  state.waiting_reason.clear();
}

bool Materializer::Impl::QueueFull() const {
  return queued_.size() >= kDecodeBatchRecords || queued_bytes_ >= DecodeBatchBytes(config_.buffer_memory);
}

void Materializer::Impl::SubmitQueued() {
  if (queued_.empty() || decode_->in_flight()) return;
  // Since it was queued, a record's topic may have been suspended, its partition sought back
  // or fenced (a commit's outcome): then it is read again later, from where the buffer stands.
  std::erase_if(queued_, [](const DecodeStage::Item& item) {
    const PartitionState& state = *item.partition;
    if (item.topic->suspended || state.phase != PartitionPhase::kReading) return true;
    if (state.buffer->resets() != item.buffer_resets) return true;
    const auto next = state.buffer->next_offset();
    return next && item.record.offset() < *next;
  });
  queued_bytes_ = 0;
  decode_->Submit(queued_);  // hands back an emptied earlier batch to fill next
}

void Materializer::Impl::JoinDecoding() {
  if (!decode_) return;  // Init did not get that far
  for (auto& refused : decode_->Join()) {
    auto& first = refused.items.front();
    const auto partition = first.partition;
    Fail(*first.topic, *partition, first.record, refused.why);
    // The partition's records after the refused one, those of this batch and then those queued
    // since, go through the error policy's outcome one by one (skipped past, or dropped because
    // the topic is suspended or the partition waits).
    std::vector<kafka::Record> after;
    for (std::size_t i = 1; i < refused.items.size(); ++i) after.push_back(std::move(refused.items[i].record));
    auto later = std::stable_partition(queued_.begin(), queued_.end(),
                                       [partition](const DecodeStage::Item& item) { return item.partition != partition; });
    for (auto it = later; it != queued_.end(); ++it) after.push_back(std::move(it->record));
    queued_.erase(later, queued_.end());
    for (auto& record : after) HandleNow(std::move(record), /*counted=*/true);
  }
}

void Materializer::Impl::Quiesce() {
  JoinDecoding();
  while (decode_ && !queued_.empty()) {
    SubmitQueued();
    JoinDecoding();
  }
}

void Materializer::Impl::PassUndeliveredOffsets() {
  for (auto& [name, topic] : topics_) {
    if (topic->suspended) continue;  // the suspending record was returned and not passed
    // A commit of offsets alone needs the table: until a record created it (or a commit shows
    // it exists), the passed offsets are simply read again after a restart.
    const bool table_exists =
        !topic->in_table.empty() || std::any_of(topic->partitions.begin(), topic->partitions.end(), [](const auto& e) {
          return e.second.buffer && e.second.buffer->committed().has_value();
        });
    if (!table_exists) continue;
    for (auto& [p, state] : topic->partitions) {
      // Only kReading: there every record Poll() returned was appended or passed, so a position
      // ahead of next_offset() can only come from offsets the consumer never returned. (A
      // waiting partition was sought back to its failed record, which resets the position.)
      if (state.phase != PartitionPhase::kReading || !state.buffer) continue;
      if (auto position = consumer_->ReadPosition(name, p)) state.buffer->PassTo(*position);
    }
  }
}

void Materializer::Impl::Fail(TopicState& topic, PartitionState& state, const kafka::Record& record,
                              const Status& why) {
  if (Classify(why) == FailureKind::kRetryLater) return RetryLater(topic, state, record, why);
  BadRecord(topic, state, record, why);
}

void Materializer::Impl::BadRecord(TopicState& topic, PartitionState& state, const kafka::Record& record,
                                   const Status& why) {
  const std::string position = record.Position();
  switch (topic.config.error_mode) {
    case ErrorMode::kSkip:
      spdlog::warn("skipped {}: {}", position, why.ToString());
      state.buffer->Pass(record);
      topic.metrics.skipped->Increment();
      ++summary_.records_skipped;
      return;
    case ErrorMode::kDlq: {
      auto headers = DeadLetterHeaders(record, why);
      // A record over max_record_size, or over what the producer may send, is dead-lettered
      // without its key and value (record_limits.h): retrying could never make it fit.
      Status produced = RecordBytes(record) > topic.config.max_record_size
                            ? Status::InvalidArgument("over max_record_size")
                            : producer_->Produce(topic.config.dlq_topic, record.key(), record.value(), headers);
      if (produced.code() == StatusCode::kInvalidArgument) {
        headers.push_back({kErrorHeaderDroppedBytes, std::to_string(RecordBytes(record))});
        produced = producer_->Produce(topic.config.dlq_topic, std::nullopt, std::nullopt, headers);
      }
      if (!produced.ok()) return RetryLater(topic, state, record, produced.WithContext("dead-letter topic"));
      spdlog::warn("dead-lettered {} to {}: {}", position, topic.config.dlq_topic, why.ToString());
      state.buffer->Pass(record);
      topic.dead_letters_unflushed = true;
      topic.metrics.dead_lettered->Increment();
      ++summary_.records_dead_lettered;
      return;
    }
    case ErrorMode::kSuspend:
      return SuspendAt(topic, record, why.ToString());
  }
}

void Materializer::Impl::RetryLater(TopicState& topic, PartitionState& state, const kafka::Record& record,
                                    const Status& why) {
  // Never skip a record because something it needs is unreachable: stop this partition,
  // go back to the record, and try again after a backoff. Other partitions go on.
  state.retry.Fail();
  state.phase = PartitionPhase::kWaiting;
  state.waiting_reason = record.Position() + ": " + why.ToString();
  spdlog::warn("{} (retrying in {} ms)", state.waiting_reason, state.retry.Remaining().count());
  const kafka::TopicPartition tp{topic.config.name, record.partition(), record.offset()};
  if (auto st = consumer_->Pause({tp}); !st.ok()) spdlog::warn("{}: pause failed: {}", record.Position(), st.ToString());
  if (auto st = consumer_->Seek(tp, kBrokerTimeout); !st.ok()) {
    spdlog::warn("{}: seek back failed: {}", record.Position(), st.ToString());
  }
}

void Materializer::Impl::ResumeWaitingPartitions() {
  if (fetch_paused_) return;  // back-pressure holds everything; ApplyBackPressure resumes
  for (auto& [name, topic] : topics_) {
    if (topic->suspended) continue;
    for (auto& [p, state] : topic->partitions) {
      if (state.phase != PartitionPhase::kWaiting || state.retry.Waiting()) continue;
      if (consumer_->Resume({{name, p, 0}}).ok()) state.phase = PartitionPhase::kReading;
    }
  }
}

void Materializer::Impl::Suspend(TopicState& topic, const std::string& position, const std::string& reason,
                                 bool commit_first) {
  if (topic.suspended) return;  // the first reason is the one that counts
  spdlog::error("suspended topic {} at {}: {}. Its offsets stay where they are; fix the cause, then resume it "
                "(floe resume {}), skip the record (floe skip), or change error_mode and restart floe.",
                topic.config.name, position, reason, topic.config.name);
  topic.suspended = true;
  topic.suspended_position = position;
  topic.suspended_reason = reason;
  topic.metrics.suspended->Set(1);
  summary_.suspended.push_back(topic.config.name + ": " + position + ": " + reason);
  // What came before the bad record is good: commit it, then stop reading.
  if (commit_first) CommitTopic(topic, "topic suspended");
  std::vector<kafka::TopicPartition> paused;
  for (auto& [p, state] : topic.partitions) {
    paused.push_back({topic.config.name, p, 0});
    state.phase = PartitionPhase::kSuspended;
  }
  if (!paused.empty()) (void)consumer_->Pause(paused);
}

void Materializer::Impl::SuspendAt(TopicState& topic, const kafka::Record& record, const std::string& reason) {
  if (topic.suspended) return;
  topic.suspended_record = std::make_pair(record.partition(), record.offset());
  Suspend(topic, record.Position(), reason);
}

}  // namespace floe::pipeline
