#pragma once
// Pieces every snapshot-producing commit on main shares (fast append, replace files, manifest
// merge): a fresh snapshot id, the manifest list and snapshot of a rewrite, and the
// requirements and updates that put a snapshot on main.
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// A random positive id (like Java's: some engines treat negative ids as "none") that no
// snapshot of `base` has.
inline std::int64_t NewSnapshotId(const TableMetadata& base) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  for (;;) {
    const std::int64_t id = static_cast<std::int64_t>(rng() >> 1);
    if (id != 0 && base.SnapshotById(id) == nullptr) return id;
  }
}

// Writes `manifests` as the manifest list of snapshot `snapshot_id`, a child of `parent` in
// `base` (null: the table's first snapshot), and returns that snapshot (base's current schema,
// timestamp now) with only `operation` in its summary, for the caller to complete
// (snapshot_commit.cc).
Result<Snapshot> WriteChildSnapshot(const TableMetadata& base, const Snapshot* parent, std::int64_t snapshot_id,
                                    std::int64_t sequence, std::string_view operation,
                                    const std::vector<ManifestFile>& manifests);

// A count of the snapshot's summary (total-records, total-data-files, ...): nullopt when it is
// missing or not a non-negative integer (another writer's summary may lack or garble it).
std::optional<std::int64_t> SummaryCount(const Snapshot& snapshot, std::string_view key);

// Requirements assert-table-uuid and assert-ref-snapshot-id(main = snapshot's parent, or no
// main when it has none); updates add-snapshot and set-snapshot-ref main. The commit is valid
// only if main has not moved since `base`: the fence of every Floe writer.
inline PreparedCommit CommitOnMain(const TableMetadata& base, const Snapshot& snapshot) {
  PreparedCommit commit;
  commit.snapshot_id = snapshot.snapshot_id;
  commit.requirements.push_back(AssertTableUuid{base.table_uuid});
  commit.requirements.push_back(AssertRefSnapshotId{std::string(kMainBranch), snapshot.parent_snapshot_id});
  commit.updates.push_back(AddSnapshotUpdate{snapshot});
  SnapshotRef ref;
  ref.snapshot_id = snapshot.snapshot_id;
  ref.type = SnapshotRefType::kBranch;
  commit.updates.push_back(SetSnapshotRefUpdate{std::string(kMainBranch), ref});
  return commit;
}

}  // namespace floe::iceberg
