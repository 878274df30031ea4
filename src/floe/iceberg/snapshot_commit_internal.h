#pragma once
// Pieces every snapshot-producing commit on main shares (fast append, replace files, manifest
// merge): a fresh snapshot id, and the requirements and updates that put a snapshot on main.
#include <cstdint>

#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// A random positive id (like Java's: some engines treat negative ids as "none") that no
// snapshot of `base` has.
std::int64_t NewSnapshotId(const TableMetadata& base);

// Requirements assert-table-uuid and assert-ref-snapshot-id(main = snapshot's parent, or no
// main when it has none); updates add-snapshot and set-snapshot-ref main. The commit is valid
// only if main has not moved since `base`: the fence of every Floe writer.
PreparedCommit CommitOnMain(const TableMetadata& base, const Snapshot& snapshot);

}  // namespace floe::iceberg
