#pragma once
// One maintenance pass over one table (docs/maintenance.md): what `floe run`'s maintenance
// thread does to each table every `interval`, and what `floe maintain` does once. The steps,
// in order, each per the table's formats and its MaintenanceConfig:
//   1. compaction, when the table has at least compaction.min_files small files (smaller than
//      compaction.target_file_size): compaction.h (Iceberg), delta_compaction.h (Delta),
//      dual_compaction.h (both: one set of files, both logs);
//   2. manifest merge (Iceberg, merge_manifests.h, the table's commit.manifest.* properties);
//   3. snapshot expiry (Iceberg, expire_snapshots.h: snapshot_retention, min_snapshots,
//      max_snapshots). With
//      both formats only once Delta's live files equal Iceberg's (the mirror of step 1 said so):
//      expiry deletes data files Iceberg no longer references, which Delta must not reference;
//   4. orphan-file removal (Iceberg, orphan_files.h: orphan_age), the Delta log's live and
//      removed-but-not-vacuumed files counted as live with both formats;
//   5. Delta log retention and vacuum (delta_cleanup.h, snapshot_retention as the window of
//      both, max_snapshots as the most log versions kept). With both formats vacuum is left
//      out: Iceberg's expiry deletes the shared files once no kept Iceberg snapshot has them.
// A light pass (PassOptions::light, between full passes) is step 1 alone, then step 3 when
// the table holds more than max_snapshots snapshots and a tenth: expiry then reads metadata
// and manifest lists, never lists storage, and keeps the metadata bounded at any commit rate.
// A failing step is reported and the pass goes on with the next one (each step stands alone:
// a lost compaction race must not keep snapshots from expiring). Every step commits through
// its own conflict retries, so ingestion commits always win and never wait (docs/architecture.md,
// "Exactly-once commit protocol").
//
// Dry run: every step plans on the table as it is and reports what it would do; nothing is
// written, committed or deleted.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/maintenance/targets.h"

namespace floe::maintenance {

// What one step cost: wall-clock time, and CPU time of the thread that ran it (maintenance
// does its work on that one thread: its Parquet writers do not use Arrow's pool).
struct StepCost {
  std::chrono::steady_clock::duration wall{};
  std::chrono::nanoseconds cpu{};
};

struct PassOptions {
  bool dry_run = false;
  // The light pass: compaction (with both formats, its Delta mirror), and snapshot expiry once
  // the table holds more than max_snapshots: what the scheduler runs when enough files were
  // committed since the last pass (scheduler.h), between full passes.
  bool light = false;
  // Asked before each step: true ends the pass there (floe run is stopping).
  std::function<bool()> stop_requested;
  // Called after each step with what it cost: the scheduler pauses to keep its CPU share.
  std::function<void(const StepCost& cost)> after_step;
};

// The table's data files at one moment (both formats: the Iceberg table's, which Delta mirrors).
struct TableShape {
  std::size_t data_files = 0;
  std::size_t small_files = 0;  // below compaction.target_file_size
  std::int64_t data_bytes = 0;
  std::optional<std::size_t> snapshots;  // Iceberg: snapshots in the metadata
  std::optional<std::int64_t> metadata_bytes;  // Iceberg: the size of the current metadata file
  std::optional<std::size_t> manifests;  // Iceberg: manifests of the current snapshot (when merge planned)
};

struct StepError {
  std::string step;  // "compaction", "manifest merge", "snapshot expiry", "orphan removal", "delta log", "vacuum", "inspect"
  std::string message;
};

struct TablePassReport {
  std::string table;
  bool dry_run = false;
  bool stopped = false;  // ended early because floe run is stopping
  std::optional<TableShape> before;
  std::optional<TableShape> after;
  // Compaction: rewritten = small files removed (would be), added = merged files written.
  bool compacted = false;  // a compaction was committed (never in a dry run)
  std::size_t files_rewritten = 0;
  std::size_t files_added = 0;
  std::int64_t bytes_rewritten = 0;
  // Manifest merge.
  std::size_t manifests_replaced = 0;
  std::size_t manifests_created = 0;
  // Snapshot expiry: snapshots and the files only they referenced.
  std::size_t snapshots_expired = 0;
  std::size_t expired_files_deleted = 0;
  std::int64_t expired_bytes_deleted = 0;
  // Orphan removal.
  std::size_t orphans_removed = 0;
  std::int64_t orphan_bytes = 0;
  // Delta log retention and vacuum.
  std::size_t delta_log_files_deleted = 0;
  std::size_t vacuumed_files = 0;
  std::int64_t vacuumed_bytes = 0;
  std::vector<std::string> notes;  // decisions worth telling: why a step did nothing
  std::vector<StepError> errors;

  nlohmann::json ToJson() const;
};

// Runs the pass; a step's failure (also an unreadable table: step "inspect") is in the
// report's errors. A table that does not exist yet is left alone (a note says so).
TablePassReport RunTablePass(catalog::TableCatalog& catalog, const MaintenanceTarget& target,
                             const PassOptions& options = {});

}  // namespace floe::maintenance
