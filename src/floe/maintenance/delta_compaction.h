#pragma once
// Compaction of a Delta table's small data files (formats: [delta]): the same plan as Iceberg
// compaction (compaction.h, bin_pack_internal.h) made on the replayed log, committed as one log
// version of `remove` + `add` actions, all with dataChange: false (PROTOCOL.md, "Add File and
// Remove File": the version rearranges data, so streaming readers skip it), by put-if-absent.
//
// The plan, on the newest version when CompactDeltaTable starts:
//   - a live `add` is small when it is below every set target (CompactionOptions); its row
//     count is stats.numRecords, or the file's Parquet footer when the writer left no stats;
//   - small files are grouped by partitionValues; a group is merged when it has at least two
//     files and merging lowers its file count; its rows, in the order the files were added
//     (modificationTime, then path), are written as
//     new Parquet files in the directory of the group's first file (Floe's tables:
//     <column>=<value>/…), read and written under the table's schema with its physical column
//     names and field ids (columns added since a file was written come back as nulls);
//   - each new file's `add` carries the group's partitionValues and stats from its footer
//     (delta/stats.h); each `remove` copies its add's partitionValues and size
//     (extendedFileMetadata: true) and has deletionTimestamp = the commit time.
// No txn action is written: Floe's offsets (appId floe:<topic>:<partition>) are in the state
// of every version and stay as the ingestion commits left them.
//
// Concurrency: ingestion commits always win. When put-if-absent of version N + 1 loses (an
// ingestion commit, or anyone, took it), the log is replayed again and the plan rebased on the
// new version: groups whose files are all still live are committed as planned (files added
// meanwhile are left for a later compaction); a group with a file that is no longer live is
// given up (its merged files stay unreferenced, for orphan removal); when no group is left,
// kConflict. At most `max_commit_attempts` versions are tried. A writer never waits for a
// compaction and never fails because of one: it only retries its put-if-absent, as for any
// other concurrent writer.
//
// Errors: kInvalidArgument for bad options, an unreadable log or a file whose row count differs
// from its stats; kUnsupported for tables Floe may not write (delta::CheckWritable: deletion
// vectors, constraints, …); kIoError / kUnavailable from storage.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/maintenance/compaction.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {

struct DeltaCompactionReport {
  std::size_t files_before = 0;     // live adds of the version the plan was made on
  std::size_t rewritten_files = 0;  // files the committed version removed (planned, in a dry run)
  std::size_t added_files = 0;      // merged files it added (would add, in a dry run)
  std::size_t files_after = 0;      // live adds right after the commit
  std::int64_t bytes_rewritten = 0;  // sizes of the removed files
  std::size_t partitions_given_up = 0;  // groups dropped because a file stopped being live
  std::optional<std::int64_t> version;  // the version written (nullopt: no commit)
  int attempts = 0;                     // put-if-absent attempts (0: nothing to do, or a dry run)
  // For logs and tests: the removed files' paths as the log spells them (percent-encoded),
  // the added files' table-relative paths (unencoded, as delta::AddFile::path).
  std::vector<std::string> removed;
  std::vector<std::string> added;
};

// `table_root`: the Delta table's location (where _delta_log/ is). `options.before_first_commit`
// runs once between preparing and writing the first version (test hook for races).
Result<DeltaCompactionReport> CompactDeltaTable(storage::FileIO& table_root, const CompactionOptions& options = {});

}  // namespace floe::maintenance
