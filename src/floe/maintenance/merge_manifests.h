#pragma once
// Manifest merging of an Iceberg table (Iceberg's RewriteManifests, with the
// commit.manifest.* merge semantics): Floe's fast appends add one manifest per commit, so
// scan planning reads ever more manifests. This keeps their number flat.
//
// The plan, on the current snapshot (iceberg/rewrite_manifests.h):
//   - manifests are grouped by partition spec (delete manifests are never merged);
//   - a group is merged only when it has at least min_count_to_merge manifests;
//   - its small manifests (shorter than target_size_bytes), in manifest-list order, are
//     packed into bins of at most target_size_bytes; each bin of two or more becomes one
//     manifest holding the bin's live entries with status EXISTING and their original
//     snapshot ids and sequence numbers (DELETED entries, which only record an earlier
//     snapshot's change, are dropped);
//   - everything else stays as it is.
// The commit is a snapshot with operation "replace" on main whose summary carries the
// parent's totals and floe.offsets unchanged (the pipeline resumes from them), plus
// manifests-created / manifests-replaced / manifests-kept / entries-processed. The table's
// rows, files and sequence numbers do not change; older snapshots keep their manifests.
// Nothing to merge: no commit (attempts 0).
//
// Defaults come from the table properties commit.manifest.min-count-to-merge (100) and
// commit.manifest.target-size-bytes (8 MiB); the options override them.
//
// Concurrency: kConflict from the catalog (an ingestion commit won) reloads the table and
// rebases the merge on it (iceberg::RebaseMergeManifests: the merged manifests are reused, the
// winner's new manifest is kept beside them), or plans again when a merged manifest is gone;
// at most max_commit_attempts commits (core/retry.h). Manifest lists (and manifests of
// re-plans) written by lost attempts are left unreferenced for the orphan pass.
//
// Errors: kInvalidArgument for bad options; kUnsupported for tables other than format v2
// and v1 snapshots without a manifest list; kConflict after max_commit_attempts lost races;
// kUnavailable / kIoError from the catalog or storage.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/core/retry.h"

namespace floe::maintenance {

struct ManifestMergeOptions {
  std::optional<int> min_count_to_merge;         // at least 2; nullopt: the table property
  std::optional<std::int64_t> target_size_bytes;  // positive; nullopt: the table property
  bool dry_run = false;                           // plan only: nothing written or committed
  // Commit attempts while other writers win the race (kConflict). At least 1.
  int max_commit_attempts = kMaxConflictAttempts;
};

struct ManifestMergeReport {
  std::size_t manifests_before = 0;   // in the current snapshot when the (last) plan was made
  std::size_t manifests_replaced = 0;  // merged away
  std::size_t manifests_created = 0;   // merged manifests written
  std::size_t manifests_after = 0;
  // The replace snapshot; without a commit, the current snapshot (nullopt: the table has none).
  std::optional<std::int64_t> snapshot_id;
  std::string metadata_location;  // of the table after the merge
  int attempts = 0;               // commit attempts (0: nothing to merge, or dry run)
};

Result<ManifestMergeReport> MergeManifests(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                           const ManifestMergeOptions& options = {});

}  // namespace floe::maintenance
