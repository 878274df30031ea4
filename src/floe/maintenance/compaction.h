#pragma once
// Compaction of an Iceberg table's small data files: many small files (one per commit and
// partition, as a streaming writer makes them) become few large ones, committed as one
// "replace" snapshot (iceberg/replace_files.h) through the table's catalog.
//
// The plan, made on the current snapshot when CompactTable starts (bin_pack_internal.h, the
// same rules for Delta tables: delta_compaction.h):
//   - a live data file is small when it is below every target that is set: fewer bytes than
//     `target_file_size` and (when `target_rows` > 0) fewer rows than `target_rows`;
//   - small files are grouped by partition spec id and partition tuple; of each group the
//     files of the smallest size tier are taken (FilesToMergeNow: smallest first, each next
//     one while at most size_ratio times the bytes taken so far), and they are merged when
//     they are at least two and merging lowers their file count;
//   - a group's rows, in manifest listing order, are written as new Parquet files of
//     rows_per_file rows each (the last one smaller), under data/<partition path>/, with the
//     group's spec id and partition tuple. rows_per_file is `target_file_size` divided by the
//     group's bytes per row (inputs' sizes / rows: merged files compress at least as well, so
//     they come out at or under the target), capped by `target_rows` when set. Rows never
//     move between partitions, and every column of every row is kept.
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
// commit. kConflict from the catalog reloads the table and rebases the replace on the fresh
// metadata: while the winner only added manifests (ingestion's fast appends), the replace's
// manifests are reused and only a new manifest list is written (iceberg::RebaseReplaceFiles),
// so a retry takes one manifest-list read and write however large the table is; otherwise the
// replace is prepared again on the fresh metadata. Either way the merged files are reused and
// files committed meanwhile stay as they are (the plan does not grow; a later compaction takes
// them). A partition group some of whose
// planned files are no longer live (another compaction removed them) is given up — dropped
// from the replace, its merged files left for orphan removal — and the other groups commit;
// when every group is given up, kConflict is returned, and calling CompactTable again plans
// anew on the current state. Ingestion commits are never blocked or failed by a compaction:
// they only ever race it through the catalog's compare-and-swap, and a replace never changes
// floe.offsets. At most `max_commit_attempts` commits are tried.
//
// Errors: kInvalidArgument for bad options (a non-positive target_file_size, a negative
// target_rows) or a file whose row count differs from its manifest entry; kUnsupported for tables with delete files and columns that cannot be cast;
// kUnavailable / kIoError from the catalog or storage. After kUnavailable from the commit its
// outcome is unknown (see TableCatalog): reload before deciding anything. Files written by a
// run that did not commit are left unreferenced under data/ (for orphan-file removal).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/core/retry.h"
#include "floe/iceberg/data_file.h"

namespace floe::maintenance {

// Options shared by Iceberg, Delta and dual-format compaction.
struct CompactionOptions {
  // Bytes: smaller files are small, merged files aim at this size. Positive. (Iceberg's
  // write.target-file-size-bytes is 512 MiB; streaming tables are read soon, 128 MiB suits them.)
  std::int64_t target_file_size = std::int64_t{128} << 20;
  // Rows: when positive, files with as many rows are not small either, and merged files hold at
  // most this many. 0: bytes alone decide.
  std::int64_t target_rows = 0;
  // Size tiers (bin_pack_internal.h, FilesToMergeNow): a partition's small files are merged
  // smallest first, each next one while it is at most this many times the bytes gathered so
  // far. <= 0: all of a partition's small files at once.
  double size_ratio = 3;
  // Delta tables: the topic's sort_by, each merged file's rows sorted by it. (Iceberg tables
  // follow their own default sort order, which floe run sets from sort_by.)
  std::vector<std::string> sort_by;
  // Plan only: nothing is written or committed; the report says what would be rewritten
  // (rewritten_files, removed, bytes_rewritten) and how many files would be added (added_files).
  bool dry_run = false;
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
  int attempts = 0;               // commit attempts (0: nothing to compact, or a dry run)
  std::size_t partitions_given_up = 0;  // groups dropped because their files stopped being live
  std::int64_t bytes_rewritten = 0;  // sum of the removed files' sizes
  // What the replace snapshot swapped (dual-format compaction mirrors it into Delta; metrics):
  // the removed small files and the added merged ones, with their metrics. A dry run fills
  // only `removed`.
  std::vector<iceberg::DataFile> removed;
  std::vector<iceberg::DataFile> added;
};

Result<CompactionReport> CompactTable(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                      const CompactionOptions& options = {});

}  // namespace floe::maintenance
