#include <spdlog/spdlog.h>

#include <algorithm>

#include "floe/core/memory_pool.h"
#include "floe/pipeline/materializer_internal.h"

namespace floe::pipeline {

namespace {
constexpr std::chrono::seconds kDeadLetterFlushTimeout{30};
// An early commit that Arrow's memory alone calls for writes at least this share of buffer_memory.
constexpr std::int64_t kLeastEarlyCommitShare = 16;
}  // namespace

// Files are written per table partition from the rows of all the topic's Kafka partitions
// (sink/data_files.h), so target_file_size is reached by the topic's unflushed data, not one
// partition's.
bool Materializer::Impl::CommitDue(const TopicState& topic) const {
  if (topic.in_flight) return false;
  const auto now = Clock::now();
  // commit_interval is the freshness target: a record should be in the table by then, so the
  // commit starts early by what the last one took (at most half the interval). Without it, at
  // 200k records/s and 1 s commits, p99 freshness was 1.55 s: 1 s of waiting plus the commit.
  const auto lead = topic.last_commit ? std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                                            topic.last_commit->duration_seconds))
                                      : Clock::duration::zero();
  const auto due_age = topic.config.commit_interval - std::min<Clock::duration>(lead, topic.config.commit_interval / 2);
  bool unflushed = false;
  std::int64_t bytes = 0;
  bool all_at_target = topic.targets.has_value();
  for (const auto& [p, state] : topic.partitions) {
    if (!state.buffer) continue;
    if (state.buffer->has_unflushed()) {
      unflushed = true;
      bytes += state.buffer->unflushed_bytes();
      if (now - state.buffer->oldest() >= due_age) return true;
    }
    if (all_at_target) {
      auto target = topic.targets->find(p);
      const bool empty = target == topic.targets->end() || target->second.second <= target->second.first;
      all_at_target = empty || state.buffer->next_offset().value_or(0) >= target->second.second;
    }
  }
  if (bytes >= topic.config.target_file_size) return true;
  // Batch mode: once every owned partition reached its end, commit them together (one
  // snapshot, not one small one per partition as each arrives).
  return unflushed && all_at_target;
}

bool Materializer::Impl::StartCommit(TopicState& topic, const char* why) {
  if (topic.in_flight) return false;
  if (topic.suspended && topic.commit_blocked) return false;  // retrying cannot help: see Suspend
  const bool any = std::any_of(topic.partitions.begin(), topic.partitions.end(), [](const auto& entry) {
    return entry.second.buffer && entry.second.buffer->has_unflushed();
  });
  if (!any) return false;
  if (topic.dead_letters_unflushed) {
    // The commit moves offsets past dead-lettered records: they must be in the DLQ first.
    if (auto st = producer_->Flush(kDeadLetterFlushTimeout); !st.ok()) {
      topic.commit_error = st.ToString();
      topic.commit_retry.Fail();
      spdlog::warn("{}: not committing yet, dead letters are not delivered: {}", topic.config.name, st.ToString());
      return false;
    }
    topic.dead_letters_unflushed = false;
  }
  auto flight = std::make_unique<CommitInFlight>();
  for (auto& [p, state] : topic.partitions) {
    if (!state.buffer || !state.buffer->has_unflushed()) continue;
    auto flush = state.buffer->BeginFlush();
    if (!flush.ok()) {
      spdlog::error("{}/{}: {}", topic.config.name, p, flush.status().ToString());
      continue;
    }
    flight->flushes.push_back({topic.config.name, p, (*flush)->expected, (*flush)->next_offset, (*flush)->batches,
                               (*flush)->operator_skipped});
  }
  if (flight->flushes.empty()) return false;
  flight->why = why;
  flight->started = Clock::now();
  // The task gets the sink and the flushes, nothing else of the loop's state; both outlive
  // it (the flight is applied, and so destroyed, only once its outcome is ready; the pool
  // is joined before the topics go).
  auto promise = std::make_shared<std::promise<Result<sink::CommitReport>>>();
  flight->outcome = promise->get_future();
  sink::TableSink* table = topic.table.get();
  const std::vector<sink::PartitionFlush>* flushes = &flight->flushes;
  topic.in_flight = std::move(flight);
  pool_->Submit([table, flushes, promise] { promise->set_value(table->Commit(*flushes)); });
  return true;
}

void Materializer::Impl::AwaitCommit(TopicState& topic) {
  if (!topic.in_flight) return;
  topic.in_flight->outcome.wait();
  FinishCommit(topic);
}

void Materializer::Impl::CollectCommits() {
  for (auto& [name, topic] : topics_) {
    if (topic->in_flight && topic->in_flight->Done()) FinishCommit(*topic);
  }
}

void Materializer::Impl::CommitTopic(TopicState& topic, const char* why) {
  AwaitCommit(topic);
  if (StartCommit(topic, why)) AwaitCommit(topic);
}

void Materializer::Impl::FinishCommit(TopicState& topic) {
  const std::unique_ptr<CommitInFlight> flight = std::move(topic.in_flight);
  auto report = flight->outcome.get();
  const auto& flushes = flight->flushes;
  const double commit_seconds = std::chrono::duration<double>(Clock::now() - flight->started).count();
  // The buffer whose flush `f` is; null when the partition was reset or went meanwhile.
  auto flushed_buffer = [&topic](const sink::PartitionFlush& f) -> PartitionBuffer* {
    auto it = topic.partitions.find(f.partition);
    if (it == topic.partitions.end() || !it->second.buffer || !it->second.buffer->flushing()) return nullptr;
    return it->second.buffer.get();
  };
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
      for (auto& [p, state] : topic.partitions) {
        if (state.buffer) state.buffer->Reset(state.buffer->committed());
      }
      return;
    }
    for (const auto& f : flushes) {
      if (auto* buffer = flushed_buffer(f)) buffer->EndFlush(/*committed=*/false);
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
  for (const auto& f : flushes) {
    PartitionBuffer* buffer = flushed_buffer(f);
    if (const sink::FencedPartition* fenced = report->FindFenced(f.topic, f.partition)) {
      if (buffer == nullptr) continue;
      // Another owner moved this partition on: our data is stale. Start over from the table.
      spdlog::warn("{}/{}: fenced (the table is at {}, this batch began at {}); dropping {} buffered records",
                   f.topic, f.partition, fenced->table_offset ? std::to_string(*fenced->table_offset) : "none",
                   f.expected ? std::to_string(*f.expected) : "none", buffer->buffered_rows());
      buffer->Reset(fenced->table_offset);
      (void)consumer_->Seek({f.topic, f.partition, fenced->table_offset.value_or(kafka::kOffsetBeginning)},
                            kBrokerTimeout);
      continue;
    }
    topic.table_offsets[f.topic][f.partition] = f.next_offset;
    if (buffer == nullptr) continue;
    const PartitionBuffer::Flush& flushed = buffer->flush();
    topic.metrics.written->Increment(flushed.rows);
    if (auto newest = flushed.newest_timestamp_ms) {
      topic.newest_committed_ms = std::max(topic.newest_committed_ms.value_or(*newest), *newest);
    }
    summary_.records_written += flushed.rows;
    buffer->EndFlush(/*committed=*/true);
    group_offsets.push_back({f.topic, f.partition, f.next_offset});
  }
  if (report->committed) {
    ++summary_.commits;
    topic.table_metrics.commits->Increment();
    topic.table_metrics.files->Increment(report->files);
    topic.files_committed += static_cast<std::int64_t>(report->files);
    topic.table_metrics.bytes->Increment(report->bytes);
    if (report->attempts > 1) topic.table_metrics.conflicts->Increment(report->attempts - 1);
    topic.table_metrics.commit_duration->Observe(commit_seconds);
    topic.last_commit = LastCommit{std::chrono::system_clock::now(), report->snapshot_id, report->rows, commit_seconds};
    spdlog::info("committed {} rows in {} files to {} (snapshot {}, {}{})", report->rows, report->files,
                 topic.table->name(), report->snapshot_id, flight->why,
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

void Materializer::Impl::ApplyBackPressure(std::int64_t in_use, bool anything_buffered) {
  // Over the budget with the files already being written (or commits failing): stop fetching
  // until commits bring it down. Records already fetched are still handled, so nothing is skipped.
  // With nothing buffered, no commit can bring it down (others hold Arrow's memory): read on.
  if (in_use > config_.buffer_memory && anything_buffered && !fetch_paused_) {
    auto assigned = consumer_->Assignment();
    if (consumer_->Pause(assigned).ok()) {
      fetch_paused_ = true;
      spdlog::info("buffer_memory ({} bytes) reached: pausing all partitions until buffered data is committed",
                   config_.buffer_memory);
    }
  } else if ((in_use <= config_.buffer_memory / 2 || !anything_buffered) && fetch_paused_) {
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
      if (in_use <= config_.buffer_memory / 2) {
        spdlog::info("buffered data is back under buffer_memory: resuming");
      } else {
        spdlog::info("nothing buffered, though Arrow holds {} bytes for other work: resuming", in_use);
      }
    }
  }
}

void Materializer::Impl::CommitDueTopics() {
  CollectCommits();
  std::int64_t total = 0;
  TopicState* largest = nullptr;
  std::int64_t largest_bytes = 0;
  for (auto& [name, topic] : topics_) {
    std::int64_t bytes = 0;
    std::int64_t unflushed = 0;
    for (const auto& [p, state] : topic->partitions) {
      if (!state.buffer) continue;
      bytes += state.buffer->buffered_bytes();
      unflushed += state.buffer->unflushed_bytes();
    }
    total += bytes;
    if (!topic->in_flight && unflushed > largest_bytes) largest = topic.get(), largest_bytes = unflushed;
    if (!topic->commit_retry.Waiting() && CommitDue(*topic)) StartCommit(*topic, "due");
  }
  // The budget is held against the larger of two measures: the rows buffered, as estimated per
  // segment, and the memory Arrow's allocator holds. The second also sees the column builders'
  // reserved capacity, the segments being encoded, the Parquet encoders' buffers and the pages
  // the allocator keeps for reuse, which the first leaves out: at buffer_memory 16MiB Arrow
  // held about twice the estimate, and peak RSS was 126-160 MiB (2M records, 3 runs) against
  // the 116 the budget allows (issue 17).
  const std::int64_t held = ArrowMemoryHeld();
  const std::int64_t in_use = std::max(total, held);
  // Past half the memory budget: write out the biggest buffer early, so that reading goes on
  // while its files are written rather than stopping at the budget. When only Arrow's measure
  // is past it, not for a sliver: others can hold that memory too (compaction, a Delta
  // checkpoint), and tiny commits would not give it back.
  const bool worth_it = total > config_.buffer_memory / 2 || largest_bytes >= config_.buffer_memory / kLeastEarlyCommitShare;
  if (in_use > config_.buffer_memory / 2 && worth_it && largest != nullptr && !largest->in_flight &&
      !largest->commit_retry.Waiting()) {
    StartCommit(*largest, "buffer_memory reached");
  }
  buffered_bytes_->Set(static_cast<double>(total));
  arrow_memory_bytes_->Set(static_cast<double>(held));
  ApplyBackPressure(in_use, /*anything_buffered=*/total > 0);
}

}  // namespace floe::pipeline
