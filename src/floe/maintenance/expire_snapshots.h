#pragma once
// Snapshot expiry of an Iceberg table (Iceberg's expireSnapshots): old snapshots are removed
// from the table metadata, then the files only they referenced are deleted — manifest lists,
// manifests and data files. A streaming writer commits every few seconds; without expiry the
// metadata and the storage grow without bound.
//
// Which snapshots are kept (everything else is expired), with now = options.now_ms (default:
// the clock) and cutoff = now - retention:
//   - every snapshot a branch or tag points at;
//   - per branch, walking its ancestry from the head: each ancestor while fewer than
//     min_snapshots have been kept, or while it is not older than the cutoff and fewer than
//     max_snapshots have been kept (the walk stops at the first ancestor that is neither — as
//     Java's RemoveSnapshots, plus the count bound Java lacks: at 1 s commits a retention by
//     age alone keeps 86,400 snapshots a day in a metadata file every commit rewrites). A
//     branch's own min-snapshots-to-keep / max-snapshot-age-ms override min_snapshots /
//     retention;
//   - main's ancestry from the head down to, and including, the newest snapshot that carries
//     floe.offsets: the pipeline finds its committed Kafka offsets by walking back through
//     parents (sink/iceberg_offsets.h), and compaction or other writers' snapshots may lack
//     the key, so neither that snapshot nor any link of the chain leading to it may go before
//     a newer snapshot carries offsets;
//   - snapshots in no ref's ancestry (left behind by a rollback) that are not older than the
//     cutoff.
// Refs are never removed (max-ref-age-ms is not applied).
//
// The commit is one remove-snapshots update (which also trims the snapshot-log; the catalog
// trims the metadata-log to write.metadata.previous-versions-max on every commit), asserting
// the table uuid and that every ref still points where it did when the expired set was
// computed. The set is computed from metadata alone, right before each attempt, so the window
// for a conflict is small; kConflict reloads and recomputes (core/retry.h), at most
// max_commit_attempts times. An ingestion commit in between therefore only costs a retry.
//
// Files are deleted only after the commit succeeded, and only files that no snapshot of the
// committed metadata references: a manifest list of an expired snapshot; a manifest listed by
// an expired snapshot and by no kept one; a data (or delete) file listed by such a manifest,
// not live (ADDED or EXISTING) in any manifest of a kept snapshot and not in
// options.extra_live_paths. A crash between the
// commit and the deletes leaves unreferenced files (orphan_files.h removes them), never a
// referenced file missing. A file that cannot be deleted is counted in delete_failures and
// left for the orphan pass; it does not fail the expiry. Old metadata.json files are left to
// the orphan pass as well.
//
// dry_run: the same plan on the current metadata — what would be expired and deleted — with
// no commit and no delete.
//
// Errors: kInvalidArgument for bad options; kUnsupported for v1 snapshots without a manifest
// list; kConflict after max_commit_attempts lost races; kUnavailable / kIoError from the
// catalog or storage (after kUnavailable from the commit its outcome is unknown: nothing was
// deleted, a later pass finishes the job).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/core/retry.h"

namespace floe::maintenance {

struct ExpiryOptions {
  // Snapshots younger than this are kept (time travel). Not negative.
  std::chrono::milliseconds retention{7LL * 24 * 3'600'000};
  // The newest snapshots of each branch kept whatever their age. At least 1.
  int min_snapshots = 10;
  // The most snapshots of each branch kept however young (min_snapshots wins when larger).
  int max_snapshots = 500;
  bool dry_run = false;
  // "Now" in milliseconds since the epoch (tests); nullopt: the system clock.
  std::optional<std::int64_t> now_ms;
  // Commit attempts while other writers win the race (kConflict). At least 1.
  int max_commit_attempts = kMaxConflictAttempts;
  // Files another format's log still references — with formats [iceberg, delta] the Delta
  // log's data files, live or within its time-travel window — are never deleted, even when no
  // kept snapshot reaches them. Absolute URIs (any spelling) or paths relative to the table
  // location, URL-decoded (orphan_files.h compares them the same way).
  std::vector<std::string> extra_live_paths;
  // Where tests crash the process on purpose (table_pass.cc arms core/fault_injection.h's
  // points through these): once the expire commit landed, before the first delete; and before
  // each delete, with the deletes attempted so far and the files to delete. Not in dry runs.
  std::function<void()> after_commit;
  std::function<void(std::size_t attempted, std::size_t total)> before_delete;
};

// Files deleted (dry run: that would be deleted), by kind.
struct DeletedFileCounts {
  std::size_t data_files = 0;  // data and delete files
  std::size_t manifests = 0;
  std::size_t manifest_lists = 0;
  // Sizes as the metadata records them: data files' file_size_in_bytes and manifests'
  // manifest_length (manifest lists have no recorded size and are not counted).
  std::int64_t bytes = 0;
};

struct ExpiryReport {
  std::vector<std::int64_t> expired_snapshot_ids;  // oldest first; empty: nothing to expire
  DeletedFileCounts deleted;
  // The absolute paths deleted (dry run: to delete), manifest lists, manifests, then data files.
  std::vector<std::string> deleted_paths;
  // Files left behind for the orphan pass; 1 also when the files to delete could not be read
  // after the commit (then nothing was deleted and first_delete_error says why).
  std::size_t delete_failures = 0;
  std::string first_delete_error;   // the first of those failures, for the log
  std::size_t snapshots_before = 0;
  std::size_t snapshots_after = 0;
  std::string metadata_location;  // of the table after the expiry (dry run / no commit: current)
  int attempts = 0;               // commit attempts (0: no commit)
};

Result<ExpiryReport> ExpireSnapshots(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                     const ExpiryOptions& options = {});

}  // namespace floe::maintenance
