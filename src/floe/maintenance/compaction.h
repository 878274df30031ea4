#pragma once
// Compaction of an Iceberg table's small data files: many small files (one per commit and
// partition, as a streaming writer makes them) become few large ones, committed as one
// "replace" snapshot (iceberg/replace_files.h) through the table's catalog.
//
// The plan, made on the current snapshot when CompactTable starts:
//   - a live data file is small when it has fewer than `target_rows` rows;
//   - small files are grouped by partition spec id and partition tuple; a group is merged
//     when it has at least two files and merging lowers its file count;
//   - a group's rows, in manifest listing order, are written as ceil(rows / target_rows)
//     new Parquet files of `target_rows` rows each (the last one smaller), under
//     data/<partition path>/, with the group's spec id and partition tuple. Rows never move
//     between partitions, and every column of every row is kept.
// Files are read under the table's current schema: top-level columns by field id (by name in
// files written without ids), columns added since a file was written as nulls, promoted or
// differently encoded types (int -> long, pyarrow's large_string) cast to the table's type.
//
// What holds after a successful compaction with a commit:
//   - the table has the same rows: the replace snapshot removes exactly the planned files and
//     adds files whose record counts sum to theirs (PrepareReplaceFiles refuses otherwise);
//   - its summary carries the parent's floe.offsets unchanged, so the pipeline resumes from
//     the same Kafka offsets; its parent is the snapshot it replaced files of;
//   - older snapshots are untouched: time travel still reads the small files;
//   - the new files have column metrics (bounds, counts), so engines prune them as before.
// A table with no group to merge is left alone: no commit, and the report has attempts 0.
//
// Concurrency (optimistic, core/retry.h). Another writer may commit between the plan and the
// commit. kConflict from the catalog reloads the table and rebuilds the replace on the fresh
// metadata: the merged files are reused, files committed meanwhile stay as they are (the plan
// does not grow; a later compaction takes them). When a planned file is no longer live
// (another compaction or an expiry removed it), this plan cannot commit any more: kConflict
// is returned after the first such attempt, and calling CompactTable again plans anew on
// the current state. At most `max_commit_attempts` commits are tried.
//
// Errors: kInvalidArgument for bad options or a file whose row count differs from its
// manifest entry; kUnsupported for tables with delete files and columns that cannot be cast;
// kUnavailable / kIoError from the catalog or storage. After kUnavailable from the commit its
// outcome is unknown (see TableCatalog): reload before deciding anything. Files written by a
// run that did not commit are left unreferenced under data/ (for orphan-file removal).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/core/retry.h"

namespace floe::maintenance {

struct CompactionOptions {
  // Files with fewer rows are small; merged files hold at most this many rows. Positive.
  std::int64_t target_rows = 1 << 20;
  // Commit attempts while other writers win the race (kConflict). At least 1.
  int max_commit_attempts = kMaxConflictAttempts;
  // Test hook (tests/tools/floe_iceberg_compact, for the integration tests' races): runs
  // once, after the first commit is prepared and before it is sent, so that a test can commit
  // to the table in between. A non-OK status ends the compaction with that status.
  std::function<Status()> before_first_commit;
};

struct CompactionReport {
  std::size_t files_before = 0;     // live data files of the snapshot the plan was made on
  std::size_t rewritten_files = 0;  // small files the replace removed
  std::size_t added_files = 0;      // merged files it added
  std::size_t files_after = 0;      // live data files after the commit (files_before without one)
  // The replace snapshot; without a commit, the current snapshot (nullopt: the table has none).
  std::optional<std::int64_t> snapshot_id;
  std::string metadata_location;  // of the table after the compaction
  int attempts = 0;               // commit attempts (0: nothing to compact)
};

Result<CompactionReport> CompactTable(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                      const CompactionOptions& options = {});

}  // namespace floe::maintenance
