#pragma once
// The bin-packing rules every compaction shares (compaction.h: Iceberg; delta_compaction.h:
// Delta): which files are small, how many rows a merged file holds, when merging a partition's
// small files is worth a commit.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "floe/core/result.h"
#include "floe/maintenance/compaction.h"

namespace floe::maintenance {

// kInvalidArgument for a non-positive target_file_size, a negative target_rows or fewer than
// one commit attempt.
Status CheckCompactionOptions(const CompactionOptions& options);

// Below every target that is set (bytes always, rows when target_rows > 0).
bool IsSmallFile(std::int64_t bytes, std::int64_t rows, const CompactionOptions& options);

// Of one partition's small files (their sizes in bytes, in listing order), the ones merged
// now (their indices, ascending): smallest first, each next file joins while it is at most
// options.size_ratio times the bytes gathered so far; the larger ones wait until enough small
// bytes have gathered beside them. Why not every small file: under 1 s commits a full merge
// rewrites the one growing file at every pass, so each row is rewritten once per pass until
// its file reaches the target (60x the table's bytes in 10 minutes, 300x in an hour, simulated
// at 5 new files per pass); size tiers rewrite each row a few times (6x / 8x) while the file
// count stays at a handful per partition (docs/maintenance.md, "Compaction").
// size_ratio <= 0: every small file.
std::vector<std::size_t> FilesToMergeNow(const std::vector<std::int64_t>& sizes, const CompactionOptions& options);

// Rows per merged file for a group holding `rows` rows in `bytes` bytes: the byte target over
// the group's bytes per row (at least 1), capped by target_rows when set.
std::int64_t RowsPerMergedFile(std::int64_t bytes, std::int64_t rows, const CompactionOptions& options);

// Files a group's merge writes.
std::int64_t MergedFileCount(std::int64_t rows, std::int64_t rows_per_file);

// A group is merged when it has at least two files and the merge lowers their count.
bool WorthMerging(std::size_t files, std::int64_t rows, std::int64_t rows_per_file);

}  // namespace floe::maintenance
