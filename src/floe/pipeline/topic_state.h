#pragma once
// The materializer's bookkeeping for one topic and its partitions (materializer.cc).
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "floe/core/config.h"
#include "floe/core/metrics.h"
#include "floe/pipeline/table_sink.h"
#include "floe/pipeline/partition_buffer.h"
#include "floe/pipeline/writer_schemas.h"

namespace floe::pipeline {

using Clock = std::chrono::steady_clock;

// Retrying something that is unavailable: 0.5 s, 1 s, 2 s, … up to 30 s.
struct Backoff {
  int attempt = 0;
  std::optional<Clock::time_point> until;
  void Fail() {
    const int shift = attempt < 6 ? attempt : 6;
    until = Clock::now() + std::min(std::chrono::milliseconds(500LL << shift), std::chrono::milliseconds(30'000));
    ++attempt;
  }
  void Succeed() { attempt = 0, until.reset(); }
  bool Waiting() const { return until && Clock::now() < *until; }
};

struct PartitionState {
  std::unique_ptr<PartitionBuffer> buffer;
  // The table's offsets could not be read when the partition was assigned: records are
  // dropped until they are and the partition has been moved to the right offset.
  bool recovering = false;
  bool paused = false;
  Backoff retry;               // a record waits for an unavailable dependency
  std::string waiting_reason;  // shown in /status while retrying
  std::optional<std::int64_t> high_watermark;  // last seen (lag metric, /status)
};

struct TopicMetrics {
  Counter* consumed = nullptr;
  Counter* written = nullptr;
  Counter* skipped = nullptr;
  Counter* dead_lettered = nullptr;
  Gauge* suspended = nullptr;
};

struct TableMetrics {
  Counter* commits = nullptr;
  Counter* conflicts = nullptr;
  Counter* bytes = nullptr;
  Counter* files = nullptr;
  Counter* evolutions = nullptr;
};

struct TopicState {
  TopicConfig config;  // `name` is the concrete topic, also for pattern subscriptions
  std::unique_ptr<WriterSchemas> schemas;
  std::unique_ptr<TableSink> table;
  std::set<const WriterSchema*> in_table;  // writer schemas the table schema already holds
  std::map<std::int32_t, PartitionState> partitions;  // assigned to this process

  bool suspended = false;
  std::string suspended_position;  // "orders/3@42"
  std::string suspended_reason;
  bool commit_blocked = false;  // suspended because its buffered data cannot be committed
  bool dead_letters_unflushed = false;
  Backoff commit_retry;
  std::string commit_error;

  // Batch mode: [low, high) per partition when the topic was first looked at.
  std::optional<std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>>> targets;
  TopicOffsets table_offsets;  // last seen (status, batch mode)
  Clock::time_point table_offsets_at{};

  TopicMetrics metrics;
  TableMetrics table_metrics;
};

}  // namespace floe::pipeline
