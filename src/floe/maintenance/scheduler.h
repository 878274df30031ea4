#pragma once
// The maintenance thread of `floe run` (docs/maintenance.md): each table gets a pass
// (table_pass.h) every `interval` of its settings, one table at a time, on one thread.
// Between passes, a table to which the pipeline committed compaction.min_files data files
// since its last pass (MaintenanceTarget::files_committed) gets a light pass (table_pass.h:
// compaction, and snapshot expiry once the table holds more than max_snapshots): under 1 s
// commits a table gains a file and a snapshot per second, and compaction and the metadata's
// bound must follow that, while the full pass's manifest merge and orphan removal (which
// lists storage) can wait for the interval. A light pass that failed is not tried again for a
// while (kCompactionRetry, at most the interval).
//
// Bounded share, so that ingestion keeps its rate:
//   - one thread, one table, one step at a time; the thread runs at a lower CPU priority
//     (nice +10) than the pipeline;
//   - CPU: after each step the thread pauses until the step's CPU time (the thread's own:
//     its Parquet writers do not use Arrow's pool) is at most cpu_share of the wall-clock
//     time since the step began: cpu / cpu_share - wall. CPU time, not wall time: on a busy
//     machine a step waits for the CPU, and counting that waiting as work made maintenance
//     fall behind exactly when the table grows fastest;
//   - memory: compaction holds one input file and one merged file at a time (compaction.h).
// Ingestion commits always win: every step commits with its own conflict retries against
// fresh metadata and gives up rather than making a writer wait (table_pass.h).
//
// The catalog should be the scheduler's own (catalog::OpenTableCatalog), not the pipeline's:
// a pass may hold a connection for a while, and the pipeline should not queue behind it.
//
// /status ("maintenance") and /metrics (docs/admin-api.md) show per table its data files,
// small files, last compaction, bytes rewritten, expired snapshots, removed orphans and the
// last error.
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/metrics.h"
#include "floe/maintenance/table_pass.h"
#include "floe/maintenance/targets.h"

namespace floe::maintenance {

struct SchedulerOptions {
  double cpu_share = 0.25;  // (0, 1]
  // The tables to look after, asked before each pass (floe run adds the topics it has met).
  std::function<std::vector<MaintenanceTarget>()> targets;
  // A table's first pass comes this long after the scheduler first sees it (or after its
  // interval, when that is shorter): a process that restarts often still maintains its tables.
  std::chrono::milliseconds first_delay{60'000};
};

class MaintenanceScheduler {
 public:
  MaintenanceScheduler(catalog::TableCatalog& catalog, MetricsRegistry& metrics, SchedulerOptions options);
  ~MaintenanceScheduler();  // Stop()

  void Start();
  // Ends the thread. A pass in progress stops before its next step; the step that is
  // running (one commit, one batch of deletes) finishes first. The CPU-share pause is
  // interrupted at once.
  void Stop();

  // {"cpu_share", "tables": [...]}: callable from any thread.
  nlohmann::json StatusReport() const;

 private:
  struct TableMetrics;
  struct TableState;

  void Loop();
  void RunPass(const MaintenanceTarget& target, bool light);
  void Pause(const StepCost& cost);
  void Record(const MaintenanceTarget& target, bool light, const TablePassReport& report, double seconds);
  std::unique_ptr<TableMetrics> MetricsFor(const std::string& table);

  catalog::TableCatalog& catalog_;
  MetricsRegistry& metrics_;
  SchedulerOptions options_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;  // tables_; the condition variable's
  std::condition_variable wake_;
  std::map<std::string, std::unique_ptr<TableState>> tables_;
};

}  // namespace floe::maintenance
