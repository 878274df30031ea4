#include <spdlog/spdlog.h>

#include <algorithm>

#include "floe/pipeline/materializer_internal.h"

namespace floe::pipeline {

namespace {
constexpr std::chrono::seconds kDeadLetterFlushTimeout{30};
}  // namespace

bool Materializer::Impl::CommitDue(const TopicState& topic) const {
  const auto now = Clock::now();
  bool uncommitted = false;
  bool all_at_target = topic.targets.has_value();
  for (const auto& [p, state] : topic.partitions) {
    if (!state.buffer) continue;
    if (state.buffer->has_uncommitted()) {
      uncommitted = true;
      if (state.buffer->buffered_bytes() >= topic.config.target_file_size) return true;
      if (now - state.buffer->oldest() >= topic.config.commit_interval) return true;
    }
    if (all_at_target) {
      auto target = topic.targets->find(p);
      const bool empty = target == topic.targets->end() || target->second.second <= target->second.first;
      all_at_target = empty || state.buffer->next_offset().value_or(0) >= target->second.second;
    }
  }
  // Batch mode: once every owned partition reached its end, commit them together (one
  // snapshot, not one small one per partition as each arrives).
  return uncommitted && all_at_target;
}

void Materializer::Impl::CommitTopic(TopicState& topic, const char* why) {
  if (topic.suspended && topic.commit_blocked) return;  // retrying cannot help: see Suspend
  std::vector<sink::PartitionFlush> flushes;
  std::vector<PartitionState*> states;
  for (auto& [p, state] : topic.partitions) {
    if (!state.buffer || !state.buffer->has_uncommitted()) continue;
    auto batches = state.buffer->PendingBatches();
    if (!batches.ok()) {
      spdlog::error("{}/{}: {}", topic.config.name, p, batches.status().ToString());
      continue;
    }
    flushes.push_back({topic.config.name, p, state.buffer->committed(), *state.buffer->next_offset(), std::move(*batches),
                       state.buffer->operator_skipped()});
    states.push_back(&state);
  }
  if (flushes.empty()) return;
  if (topic.dead_letters_unflushed) {
    // The commit moves offsets past dead-lettered records: they must be in the DLQ first.
    if (auto st = producer_->Flush(kDeadLetterFlushTimeout); !st.ok()) {
      topic.commit_error = st.ToString();
      topic.commit_retry.Fail();
      spdlog::warn("{}: not committing yet, dead letters are not delivered: {}", topic.config.name, st.ToString());
      return;
    }
    topic.dead_letters_unflushed = false;
  }
  const auto commit_started = Clock::now();
  auto report = topic.table->Commit(flushes);
  const double commit_seconds = std::chrono::duration<double>(Clock::now() - commit_started).count();
  if (!report.ok()) {
    if (Classify(report.status()) == FailureKind::kPermanent) {
      // Retrying cannot help (the data does not fit the table, a bug): stop the topic with
      // its offsets where they are rather than loop.
      std::string positions;
      for (const auto& f : flushes) {
        positions += (positions.empty() ? "" : ", ") + f.topic + "/" + std::to_string(f.partition) + "@" +
                     std::to_string(f.expected.value_or(0)) + ".." + std::to_string(f.next_offset - 1);
      }
      Suspend(topic, positions, "cannot commit: " + report.status().ToString(), /*commit_first=*/false);
      topic.commit_blocked = true;
      // The rows will never be committed by this process (a restart reads them again from the
      // table's offsets): drop them, or they would hold buffer_memory and back-pressure would
      // stall every other topic.
      for (auto* state : states) state->buffer->Reset(state->buffer->committed());
      return;
    }
    topic.commit_error = report.status().ToString();
    if (!topic.commit_failing_since) topic.commit_failing_since = Clock::now();
    topic.commit_retry.Fail();
    topic.table_metrics.failures->Increment();
    healthy_ = false;
    spdlog::warn("{}: commit failed, will retry: {}", topic.table->name(), topic.commit_error);
    return;
  }
  healthy_ = true;
  topic.commit_error.clear();
  topic.commit_failing_since.reset();
  topic.commit_retry.Succeed();
  std::vector<kafka::TopicPartition> group_offsets;
  for (std::size_t i = 0; i < flushes.size(); ++i) {
    const auto& f = flushes[i];
    if (const sink::FencedPartition* fenced = report->FindFenced(f.topic, f.partition)) {
      // Another owner moved this partition on: our data is stale. Start over from the table.
      spdlog::warn("{}/{}: fenced (the table is at {}, this batch began at {}); dropping {} buffered records",
                   f.topic, f.partition, fenced->table_offset ? std::to_string(*fenced->table_offset) : "none",
                   f.expected ? std::to_string(*f.expected) : "none", states[i]->buffer->buffered_rows());
      states[i]->buffer->Reset(fenced->table_offset);
      (void)consumer_->Seek({f.topic, f.partition, fenced->table_offset.value_or(kafka::kOffsetBeginning)},
                            kBrokerTimeout);
      continue;
    }
    topic.metrics.written->Increment(states[i]->buffer->buffered_rows());
    if (auto newest = states[i]->buffer->newest_timestamp_ms()) {
      topic.newest_committed_ms = std::max(topic.newest_committed_ms.value_or(*newest), *newest);
    }
    summary_.records_written += states[i]->buffer->buffered_rows();
    states[i]->buffer->MarkCommitted();
    topic.table_offsets[f.topic][f.partition] = f.next_offset;
    group_offsets.push_back({f.topic, f.partition, f.next_offset});
  }
  if (report->committed) {
    ++summary_.commits;
    topic.table_metrics.commits->Increment();
    topic.table_metrics.files->Increment(report->files);
    topic.table_metrics.bytes->Increment(report->bytes);
    if (report->attempts > 1) topic.table_metrics.conflicts->Increment(report->attempts - 1);
    topic.table_metrics.commit_duration->Observe(commit_seconds);
    topic.last_commit = LastCommit{std::chrono::system_clock::now(), report->snapshot_id, report->rows, commit_seconds};
    spdlog::info("committed {} rows in {} files to {} (snapshot {}, {}{})", report->rows, report->files,
                 topic.table->name(), report->snapshot_id, why,
                 report->attempts > 1 ? ", after " + std::to_string(report->attempts - 1) + " conflicts" : "");
  }
  // For lag monitoring only (the table is the source of truth).
  if (!group_offsets.empty()) (void)consumer_->CommitOffsets(group_offsets);
}

std::int64_t Materializer::Impl::BufferedBytes() const {
  std::int64_t total = 0;
  for (const auto& [name, topic] : topics_) {
    for (const auto& [p, state] : topic->partitions) total += state.buffer ? state.buffer->buffered_bytes() : 0;
  }
  return total;
}

void Materializer::Impl::ApplyBackPressure(std::int64_t buffered) {
  // Still over the budget after trying to commit (commits are failing): stop fetching until
  // they succeed again. Records already fetched are still handled, so nothing is skipped.
  if (buffered > config_.buffer_memory && !fetch_paused_) {
    auto assigned = consumer_->Assignment();
    if (consumer_->Pause(assigned).ok()) {
      fetch_paused_ = true;
      spdlog::warn("buffer_memory ({} bytes) exceeded while commits fail: pausing all partitions", config_.buffer_memory);
    }
  } else if (buffered <= config_.buffer_memory / 2 && fetch_paused_) {
    std::vector<kafka::TopicPartition> resume;
    for (const auto& tp : consumer_->Assignment()) {
      auto topic = topics_.find(tp.topic);
      if (topic == topics_.end() || topic->second->suspended) continue;
      auto p = topic->second->partitions.find(tp.partition);
      if (p != topic->second->partitions.end() && p->second.phase == PartitionPhase::kWaiting) continue;  // its own backoff
      resume.push_back(tp);
    }
    if (consumer_->Resume(resume).ok()) {
      fetch_paused_ = false;
      spdlog::info("buffered data is back under buffer_memory: resuming");
    }
  }
}

void Materializer::Impl::CommitDueTopics() {
  std::int64_t total = 0;
  TopicState* largest = nullptr;
  std::int64_t largest_bytes = 0;
  for (auto& [name, topic] : topics_) {
    std::int64_t bytes = 0;
    for (const auto& [p, state] : topic->partitions) bytes += state.buffer ? state.buffer->buffered_bytes() : 0;
    total += bytes;
    if (bytes > largest_bytes) largest = topic.get(), largest_bytes = bytes;
    if (!topic->commit_retry.Waiting() && CommitDue(*topic)) CommitTopic(*topic, "due");
  }
  // Over the memory budget: write out the biggest buffer early rather than grow.
  if (total > config_.buffer_memory && largest != nullptr && !largest->commit_retry.Waiting()) {
    CommitTopic(*largest, "buffer_memory reached");
    total = BufferedBytes();
  }
  buffered_bytes_->Set(static_cast<double>(total));
  ApplyBackPressure(total);
}

}  // namespace floe::pipeline
