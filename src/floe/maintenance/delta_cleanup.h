#pragma once
// Delta log retention and vacuum: what lets a Delta table written every few seconds stay small,
// while readers of any version inside the retention windows keep working.
//
// Log retention (PROTOCOL.md, "Metadata Cleanup"), window = delta.logRetentionDuration
// (default 30 days, delta/table_properties.h):
//   - cutoff = midnight UTC of the day of (now - window); the cutoff commit is the newest
//     commit whose file is not newer than the cutoff (commit times are the files' modification
//     times, as Delta's own cleanup reads them), or, with max_versions, the version
//     max_versions - 1 before the newest when that is later;
//   - the cutoff checkpoint is the newest complete checkpoint at or before the cutoff commit;
//   - every commit file, checkpoint file (all parts) and .crc file of a version before the
//     cutoff checkpoint is deleted, oldest first (a crash midway leaves a log with no gap
//     after its oldest version). The cutoff checkpoint, its commit file and everything after
//     stay, so every version from the cutoff commit on is readable (time travel included).
//   Without a checkpoint at or before the cutoff commit nothing is deleted: replay needs the
//   commits from version 0.
//
// Vacuum, window = delta.deletedFileRetentionDuration (default 7 days; retention_ms may
// shorten it, never lengthen it: checkpoints drop tombstones a day after the table's window,
// delta/table_properties.h TombstoneExpiry, and vacuum must meet them first): a data file is
// deleted when a `remove` tombstone of the newest version names it, the tombstone's
// deletionTimestamp is older than now - window, and no live `add` of the newest version
// names it. Versions whose tombstones are younger still read their files. Only files named by
// tombstones are touched: files the log never named are orphan removal's
// (maintenance/orphan_files.h). A tombstone without a deletionTimestamp is kept (its age is
// unknown). Deleting an already missing file is not an error (a vacuum interrupted midway
// runs again).
//
// Both are safe beside a running writer: they only delete what no version inside the window
// references, and a writer never re-adds a file it once removed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {

struct DeltaCleanupOptions {
  // The clock, in ms since the epoch (nullopt: the system clock). Tests move it forward.
  std::optional<std::int64_t> now_ms;
  // Override the table property (tests, `floe maintain`); nullopt: the table's or the default.
  std::optional<std::int64_t> retention_ms;
  // Log retention only: the newest this many versions are the most kept for time travel,
  // however young (maintenance's max_snapshots: at 1 s commits the log would otherwise keep
  // days of versions). The cutoff is then the later of the two; nullopt: the window alone.
  std::optional<std::int64_t> max_versions;
  bool dry_run = false;  // list what would be deleted, delete nothing
};

struct LogCleanupReport {
  std::optional<std::int64_t> cutoff_checkpoint;  // nullopt: nothing could be deleted
  std::int64_t oldest_version_kept = -1;          // the oldest version still readable (-1: no table)
  std::vector<std::string> deleted;  // table-relative _delta_log/ files (would be, in a dry run)
};

// Deletes expired _delta_log files. kInvalidArgument for a malformed delta.logRetentionDuration.
Result<LogCleanupReport> CleanUpDeltaLog(storage::FileIO& table_root, const DeltaCleanupOptions& options = {});

struct VacuumReport {
  std::int64_t version = -1;         // the version whose tombstones were read
  std::vector<std::string> deleted;  // data file URIs deleted (would be, in a dry run)
  std::int64_t bytes = 0;            // their sizes, from the tombstones (0 when not recorded)
  std::size_t kept_tombstones = 0;   // tombstones still inside the window
};

// Deletes data files removed longer ago than the retention. kInvalidArgument for a malformed
// delta.deletedFileRetentionDuration.
Result<VacuumReport> VacuumDelta(storage::FileIO& table_root, const DeltaCleanupOptions& options = {});

}  // namespace floe::maintenance
