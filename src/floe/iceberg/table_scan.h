#pragma once
// Listing what a snapshot holds: its live data files (status ADDED or EXISTING). This is the
// planning step of a scan, without filters: maintenance (compaction, orphan-file removal)
// needs every file.
//
// Delete files (merge-on-read position/equality deletes, written by other engines) are not
// supported yet: Floe writes none, and a snapshot that has any is kUnsupported here rather
// than listed as if its data files had no deletes applied.
#include <cstdint>
#include <optional>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// The live data files of a snapshot (default: the current one; none when the table has no
// snapshot). kNotFound for an unknown snapshot id; kUnsupported for delete files and for v1
// snapshots without a manifest list.
Result<std::vector<DataFile>> LiveDataFiles(const TableMetadata& metadata,
                                            std::optional<std::int64_t> snapshot_id = std::nullopt);

}  // namespace floe::iceberg
