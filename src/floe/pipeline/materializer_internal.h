#pragma once
// The materializer's insides (materializer.h), shared by its four files:
//   materializer.cc          setup, rebalancing, the loop
//   materializer_records.cc  one record: decode, append, or the error policy
//   materializer_commits.cc  when and how a topic's buffers are committed (on the worker pool); back-pressure
//   materializer_status.cc   /status, lag, batch mode's "caught up"
//   materializer_operator.cc operator commands: resume and skip a suspended topic
#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/catalog/delta_table_registry.h"
#include "floe/kafka/group_consumer.h"
#include "floe/kafka/producer.h"
#include "floe/pipeline/decode_stage.h"
#include "floe/pipeline/materializer.h"
#include "floe/pipeline/operator_commands.h"
#include "floe/pipeline/topic_state.h"
#include "floe/pipeline/worker_pool.h"
#include "floe/registry/client.h"

namespace floe::pipeline {

class Materializer::Impl final : public kafka::RebalanceListener {
 public:
  Impl(const FloeConfig& config, catalog::TableCatalog& catalog, MetricsRegistry& metrics, MaterializerSeams seams)
      : config_(config), catalog_(catalog), metrics_(metrics), seams_(std::move(seams)) {}

  Status Init();
  Result<RunSummary> Run(const RunOptions& options, const std::atomic<bool>& stop);
  // Batch mode: kUnavailable once a table's commits have failed for `give_up` in a row.
  Status BatchCommitsStillHopeful(std::chrono::milliseconds give_up) const;
  nlohmann::json StatusReport() const {
    std::lock_guard lock(status_mu_);
    return status_;
  }
  bool Healthy() const { return healthy_.load(); }
  CommandQueue& commands() { return commands_; }

  void OnAssigned(std::vector<kafka::TopicPartition>& partitions) override;
  void OnRevoked(const std::vector<kafka::TopicPartition>& partitions, bool lost) override;

 private:
  // Setup and rebalancing (materializer.cc).
  Result<TopicState*> TopicFor(const std::string& name);
  const TopicConfig* ConfigFor(const std::string& name) const;
  // Batch mode: where each partition of `topics` stands now, the offsets to reach (targets).
  Status LoadTargets(const std::vector<TopicState*>& topics);
  // Reads the table's offset for the partition and makes it start there (kReading), or leaves
  // it kRecovering with a backoff. `offsets`: the table's offsets if already read.
  bool StartPartition(TopicState& topic, std::int32_t p, PartitionState& state, const sink::TopicOffsets& offsets);
  void RecoverPartitions();
  // Pauses partitions assigned while their topic is suspended or back-pressure is on
  // (OnAssigned cannot pause: the consumer assigns only after it returns).
  void PausePending();

  // Records (materializer_records.cc). Handle queues a record on the plain path for the decode
  // stage (decode_stage.h); HandleNow, for everything else, first drains what is queued
  // (Quiesce) and then appends the record or applies the error policy. `counted`: the consumed
  // metric already has it (a record the decode stage returned).
  void Handle(kafka::Record record);
  void HandleNow(kafka::Record record, bool counted = false);
  // The record's partition if it is ours, reading, and the record is not one already read.
  PartitionState* ReadingPartition(const kafka::Record& record, TopicState*& topic);
  // The record's writer schema (value and registry key combined; a tombstone's for a null value)
  // and the bytes its decoders read: PartitionBuffer::Append's arguments.
  struct ResolvedRecord {
    const WriterSchema* schema = nullptr;
    std::string_view payload;
    std::optional<std::string_view> key_payload;
  };
  Result<ResolvedRecord> ResolveRecord(TopicState& topic, const kafka::Record& record);
  // Decoding (materializer_records.cc): the queued records become the batch in flight
  // (SubmitQueued), whose outcome JoinDecoding waits for and applies; Quiesce leaves nothing
  // queued or in flight. Every buffer is the poll thread's again after JoinDecoding.
  bool QueueFull() const;
  void SubmitQueued();
  void JoinDecoding();
  void Quiesce();
  // A failure handling `record`: retried later or a bad record, as Classify says.
  void Fail(TopicState& topic, PartitionState& partition, const kafka::Record& record, const Status& why);
  void BadRecord(TopicState& topic, PartitionState& partition, const kafka::Record& record, const Status& why);
  void RetryLater(TopicState& topic, PartitionState& partition, const kafka::Record& record, const Status& why);
  void ResumeWaitingPartitions();
  // Reading partitions whose consumer position passed transaction markers or aborted records
  // after their last record: their offsets move on too (PartitionBuffer::PassTo).
  void PassUndeliveredOffsets();
  void Suspend(TopicState& topic, const std::string& position, const std::string& reason, bool commit_first = true);
  // Suspends the topic at `record`, the one record at fault (an operator may skip it).
  void SuspendAt(TopicState& topic, const kafka::Record& record, const std::string& reason);

  // Operator commands (materializer_operator.cc), applied on the loop's thread.
  CommandResult Apply(const OperatorCommand& command);
  CommandResult ResumeTopic(const std::string& name);
  CommandResult SkipRecord(const OperatorCommand& command);
  // Lifts the suspension: each suspended partition reads again from where it stopped (its
  // buffer's next offset: the committed offset plus what is still buffered). The partitions.
  std::vector<std::int32_t> Unsuspend(TopicState& topic);

  // Commits (materializer_commits.cc). A commit runs on a worker (StartCommit) and its outcome
  // is applied on the poll thread (FinishCommit); one per topic at a time.
  bool CommitDue(const TopicState& topic) const;
  // Flushes every partition with unflushed rows into one commit on a worker; false when none
  // started (nothing to commit, one already running, dead letters not delivered).
  bool StartCommit(TopicState& topic, const char* why);
  void FinishCommit(TopicState& topic);
  // Waits for the topic's running commit, if any, and applies its outcome.
  void AwaitCommit(TopicState& topic);
  // Applies the outcome of every commit that has finished.
  void CollectCommits();
  // Commits everything buffered now and waits (revoke, suspension, operator skip, shutdown).
  void CommitTopic(TopicState& topic, const char* why);
  void CommitDueTopics();
  std::int64_t BufferedBytes() const;
  void ApplyBackPressure(std::int64_t in_use, bool anything_buffered);

  // Status (materializer_status.cc).
  bool CaughtUp();
  void PublishStatus();
  void UpdateLag();
  bool WatermarksUnknown() const;
  // Per topic catching up: records read, % of the backlog, rate, ETA (every ~5 s, at info).
  void LogProgress() const;

  const FloeConfig& config_;
  catalog::TableCatalog& catalog_;
  MetricsRegistry& metrics_;
  MaterializerSeams seams_;
  std::unique_ptr<registry::Client> registry_;
  std::unique_ptr<catalog::DeltaTableRegistry> delta_registry_;  // catalog.type glue/unity; else null
  std::unique_ptr<kafka::GroupConsumer> consumer_;
  std::unique_ptr<kafka::Producer> producer_;  // only when a topic dead-letters
  std::map<std::string, std::unique_ptr<TopicState>, std::less<>> topics_;
  // After topics_: destroyed (its threads joined, their tasks done) before the topics whose
  // sinks and flushes the tasks use.
  std::unique_ptr<WorkerPool> pool_;
  std::unique_ptr<DecodeStage> decode_;  // after topics_ too: its tasks append to their buffers
  std::vector<DecodeStage::Item> queued_;  // read and resolved since the last batch was submitted
  std::int64_t queued_bytes_ = 0;
  bool batch_mode_ = false;
  bool fetch_paused_ = false;  // back-pressure: over buffer_memory while commits fail
  std::vector<kafka::TopicPartition> pending_pause_;  // see PausePending
  Gauge* buffered_bytes_ = nullptr;
  Gauge* arrow_memory_bytes_ = nullptr;
  RunSummary summary_;
  Clock::time_point started_ = Clock::now();

  CommandQueue commands_;

  mutable std::mutex status_mu_;
  nlohmann::json status_;
  std::atomic<bool> healthy_{true};
};

inline constexpr std::chrono::seconds kBrokerTimeout{10};
// A decode batch closes at this many records or bytes read (or at the next housekeeping, every
// 20 ms while records flow): a few fetches' worth, so that several partitions decode at once.
// The bytes are a sixteenth of buffer_memory, at most 8 MiB: queued records hold librdkafka's
// messages (and the fetch responses they are in) beyond the budget.
inline constexpr std::size_t kDecodeBatchRecords = 16384;
inline std::int64_t DecodeBatchBytes(std::int64_t buffer_memory) {
  return std::clamp<std::int64_t>(buffer_memory / 16, 256 << 10, 8 << 20);
}

}  // namespace floe::pipeline
