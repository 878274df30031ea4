#include <random>

#include "floe/iceberg/snapshot_commit_internal.h"

namespace floe::iceberg {

std::int64_t NewSnapshotId(const TableMetadata& base) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  for (;;) {
    const std::int64_t id = static_cast<std::int64_t>(rng() >> 1);
    if (id != 0 && base.SnapshotById(id) == nullptr) return id;
  }
}

PreparedCommit CommitOnMain(const TableMetadata& base, const Snapshot& snapshot) {
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
