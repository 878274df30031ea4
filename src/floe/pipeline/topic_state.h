#pragma once
// The materializer's bookkeeping for one topic and its partitions (materializer_internal.h).
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "floe/core/backoff.h"
#include "floe/core/config.h"
#include "floe/core/metrics.h"
#include "floe/pipeline/partition_buffer.h"
#include "floe/pipeline/partition_phase.h"
#include "floe/pipeline/progress.h"
#include "floe/pipeline/writer_schemas.h"
#include "floe/sink/table_sink.h"

namespace floe::pipeline {

using Clock = std::chrono::steady_clock;

struct PartitionState {
  PartitionPhase phase = PartitionPhase::kRecovering;
  std::unique_ptr<PartitionBuffer> buffer;     // set once the start offset is known
  Backoff retry;                               // kRecovering / kWaiting: when to try again
  std::string waiting_reason;                  // kWaiting: shown in /status
  std::optional<std::int64_t> high_watermark;  // last seen (lag metric, /status)
  std::optional<std::int64_t> low_watermark;   // last seen: where reading starts with no offsets
};

struct TopicMetrics {
  Counter* consumed = nullptr;
  Counter* written = nullptr;
  Counter* skipped = nullptr;
  Counter* dead_lettered = nullptr;
  Gauge* suspended = nullptr;
  Gauge* records_per_second = nullptr;
};

struct TableMetrics {
  Counter* commits = nullptr;
  Counter* conflicts = nullptr;
  Counter* failures = nullptr;  // commits that failed (storage, catalog) and will be retried
  Counter* bytes = nullptr;
  Counter* files = nullptr;
  Counter* evolutions = nullptr;
  Histogram* commit_duration = nullptr;
  Gauge* freshness = nullptr;  // set once a commit brought a record timestamp
};

// The topic's last successful commit in this process (/status's last_commit).
struct LastCommit {
  std::chrono::system_clock::time_point at;
  std::int64_t snapshot_id = 0;
  std::int64_t rows = 0;
  double duration_seconds = 0;
};

// A commit of the topic running on a worker thread (materializer_commits.cc): the flushes it
// was given (each partition's buffer holds the same rows as its flush until the outcome is
// applied on the poll thread) and, once done, its outcome.
struct CommitInFlight {
  std::vector<sink::PartitionFlush> flushes;
  const char* why = "";
  Clock::time_point started;
  std::future<Result<sink::CommitReport>> outcome;
  bool Done() const { return outcome.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }
};

struct TopicState {
  TopicConfig config;  // `name` is the concrete topic, also for pattern subscriptions
  std::unique_ptr<WriterSchemas> schemas;
  std::unique_ptr<sink::TableSink> table;
  std::set<const WriterSchema*> in_table;  // writer schemas the table schema already holds
  std::map<std::int32_t, PartitionState> partitions;  // assigned to this process

  // Suspension: set once, with the first reason; cleared by an operator's resume or skip
  // (materializer_operator.cc) or a restart.
  bool suspended = false;
  std::string suspended_position;  // "orders/3@42"
  std::string suspended_reason;
  // The record the topic is suspended at, when one record is the cause (not a failed commit):
  // the only record an operator may skip.
  std::optional<std::pair<std::int32_t, std::int64_t>> suspended_record;
  bool commit_blocked = false;  // suspended because its buffered data cannot be committed

  std::unique_ptr<CommitInFlight> in_flight;  // at most one commit per table at a time
  bool dead_letters_unflushed = false;
  Backoff commit_retry;
  std::string commit_error;
  std::optional<Clock::time_point> commit_failing_since;  // first failure of the current streak

  // Batch mode: [low, high) per partition when the topic was first looked at.
  std::optional<std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>>> targets;
  sink::TopicOffsets table_offsets;  // last seen (status, batch mode)
  Clock::time_point table_offsets_at{};

  // Freshness and progress (materializer_status.cc).
  std::optional<std::int64_t> newest_committed_ms;  // newest Kafka timestamp committed by this process
  std::optional<LastCommit> last_commit;
  std::int64_t files_committed = 0;  // data files this process committed (maintenance's trigger)
  RateMeter read_rate;  // records consumed per second
  CatchUp catch_up;
  Progress progress;    // as last published

  TopicMetrics metrics;
  TableMetrics table_metrics;
};

}  // namespace floe::pipeline
