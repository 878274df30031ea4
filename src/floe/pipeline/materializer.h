#pragma once
// The pipeline's main loop (docs/architecture.md, "What flows through it"): consume the configured
// topics as a member of the Kafka consumer group, decode each record into its partition's
// buffer, and commit each topic's table when a partition's buffer reaches target_file_size,
// its oldest record is commit_interval old, buffered data passes buffer_memory, the
// partition is revoked, or the run ends. Exactly-once comes from the table, not Kafka: on
// every assignment the table's committed offsets decide where reading starts, and commits
// are fenced (sink/fencing.h). docs/architecture.md follows one record through it.
//
// Errors never stop the process: a bad record goes to the topic's error_mode (suspend the
// topic / skip / dead-letter), an unreachable dependency (registry, catalog, storage) is
// retried with backoff while the rest goes on. Threads: Run() polls, decodes and buffers on the
// calling thread (the poll thread), which owns all of the pipeline's state; a topic's commit
// (Parquet encoding, file writes, the table commit) runs on a pool of `workers:` threads with
// its own copy of the flushed batches, one commit per table at a time, and its outcome is
// applied back on the poll thread. The status snapshot is the only other shared state.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/core/metrics.h"
#include "floe/core/result.h"
#include "floe/kafka/group_consumer.h"
#include "floe/sink/table_sink.h"

namespace floe::pipeline {

struct RunOptions {
  // Batch mode: stop once every partition of the configured topics is committed up to the
  // end offsets seen when the topic was first looked at (suspended topics count as done).
  bool exit_when_caught_up = false;
  // Batch mode only: a table whose commits have kept failing this long (store or catalog
  // down, access denied) ends the run with an error instead of retrying forever; nothing is
  // lost, the next run starts from the table's offsets. A service keeps retrying.
  std::chrono::milliseconds batch_commit_give_up{std::chrono::minutes(5)};
};

struct RunSummary {
  std::int64_t records_written = 0;
  std::int64_t records_skipped = 0;
  std::int64_t records_dead_lettered = 0;
  std::int64_t commits = 0;
  std::vector<std::string> suspended;  // "<topic>: <position>: <reason>"
};

// The materializer's seams to the outside, replaceable in tests (tests/unit/pipeline/): a
// null member means the real one — librdkafka's consumer, sink::OpenTableSink.
struct MaterializerSeams {
  std::unique_ptr<kafka::GroupConsumer> consumer;
  std::function<Result<std::unique_ptr<sink::TableSink>>(const TopicConfig& topic)> open_sink;
};

class Materializer {
 public:
  static Result<std::unique_ptr<Materializer>> Make(const FloeConfig& config, catalog::TableCatalog& catalog,
                                                    MetricsRegistry& metrics, MaterializerSeams seams = {});
  ~Materializer();

  // Runs until `stop` is set (then commits what is buffered) or, in batch mode, caught up.
  Result<RunSummary> Run(const RunOptions& options, const std::atomic<bool>& stop);

  // The /status body, refreshed by the loop about once a second; callable from any thread.
  nlohmann::json StatusReport() const;
  bool Healthy() const;

  // Operator commands (docs/admin-api.md), callable from any thread: applied by Run's loop
  // between records; the answer comes once it was applied or refused. kNotFound: no such
  // topic; kConflict: not suspended, or (skip) not the record the topic is suspended at;
  // kUnavailable: the loop is not running.
  // Resume: the suspended topic reads again from where it stopped. {"topic", "resumed_partitions"}
  Result<nlohmann::json> Resume(const std::string& topic);
  // Skip: moves past exactly the record the topic is suspended at, recorded in the next
  // commit (floe.skipped), then resumes. {"topic", "partition", "offset", "skipped", ...}
  Result<nlohmann::json> Skip(const std::string& topic, std::int32_t partition, std::int64_t offset);

 private:
  class Impl;
  explicit Materializer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::pipeline
