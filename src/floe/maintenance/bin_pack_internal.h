#pragma once
// The bin-packing rules every compaction shares (compaction.h: Iceberg; delta_compaction.h:
// Delta): which files are small, how many rows a merged file holds, when merging a partition's
// small files is worth a commit.
#include <cstddef>
#include <cstdint>

#include "floe/core/result.h"
#include "floe/maintenance/compaction.h"

namespace floe::maintenance {

// kInvalidArgument for a non-positive target_file_size, a negative target_rows or fewer than
// one commit attempt.
Status CheckCompactionOptions(const CompactionOptions& options);

// Below every target that is set (bytes always, rows when target_rows > 0).
bool IsSmallFile(std::int64_t bytes, std::int64_t rows, const CompactionOptions& options);

// Rows per merged file for a group holding `rows` rows in `bytes` bytes: the byte target over
// the group's bytes per row (at least 1), capped by target_rows when set.
std::int64_t RowsPerMergedFile(std::int64_t bytes, std::int64_t rows, const CompactionOptions& options);

// Files a group's merge writes.
std::int64_t MergedFileCount(std::int64_t rows, std::int64_t rows_per_file);

// A group is merged when it has at least two files and the merge lowers their count.
bool WorthMerging(std::size_t files, std::int64_t rows, std::int64_t rows_per_file);

}  // namespace floe::maintenance
