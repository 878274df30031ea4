#pragma once
// Merging small manifests (Iceberg's RewriteManifests with the commit.manifest.* merge rules;
// snapshot operation "replace"). The table's files and rows do not change: only how the
// current snapshot's manifest list groups them. See maintenance/merge_manifests.h for when
// Floe runs it.
//
// The plan on base's current snapshot:
//   - data manifests are grouped by partition spec, in manifest-list order; delete manifests
//     are kept as they are;
//   - a group with fewer than min_count_to_merge manifests is kept as it is;
//   - otherwise its manifests shorter than target_size_bytes are packed, in order, into bins
//     whose lengths sum to at most target_size_bytes; a bin of two or more manifests becomes
//     one new manifest, at the position of the bin's first one. It holds the bin's live
//     entries with status EXISTING, their snapshot ids and data/file sequence numbers as they
//     were (spec: "Sequence Number Inheritance" — only ADDED entries may inherit); DELETED
//     entries are dropped (they only record a change an earlier snapshot made).
// The snapshot: parent = base's current snapshot, the next sequence number, the parent's
// total-* and floe.offsets summary entries unchanged, plus manifests-created,
// manifests-replaced, manifests-kept and entries-processed. The commit asserts the table
// uuid and that main still points at the parent (kConflict from the catalog: rebase it on
// fresh metadata, below).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "floe/core/result.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

inline constexpr std::string_view kPropManifestMinCountToMerge = "commit.manifest.min-count-to-merge";
inline constexpr int kDefaultManifestMinCountToMerge = 100;
inline constexpr std::string_view kPropManifestTargetSizeBytes = "commit.manifest.target-size-bytes";
inline constexpr std::int64_t kDefaultManifestTargetSizeBytes = 8LL << 20;

struct ManifestMergeSettings {
  int min_count_to_merge = kDefaultManifestMinCountToMerge;
  std::int64_t target_size_bytes = kDefaultManifestTargetSizeBytes;
};

// The table's settings: the properties above when they hold a valid number (min count at
// least 2, target size positive), else the defaults.
ManifestMergeSettings ManifestMergeSettingsOf(const TableMetadata& metadata);

struct MergedManifestsState;  // rewrite_manifests.cc

struct ManifestMerge {
  std::size_t manifests_before = 0;    // in base's current snapshot
  std::size_t manifests_replaced = 0;  // merged into new ones
  std::size_t manifests_created = 0;
  std::size_t manifests_after = 0;
  // The commit; nullopt when there is nothing to merge, or with plan_only (then the counts
  // are the plan's, with manifests_created counting bins, and nothing is written).
  std::optional<PreparedCommit> commit;
  // With a commit: the merged manifests, for RebaseMergeManifests after a lost race.
  std::shared_ptr<const MergedManifestsState> reusable;
};

// Writes the merged manifests and the manifest list under the metadata directory (unless
// plan_only). kUnsupported for tables other than format v2 and for v1 inline manifests;
// kInvalidArgument for settings out of range.
Result<ManifestMerge> PrepareMergeManifests(const TableMetadata& base, const ManifestMergeSettings& settings,
                                            bool plan_only = false);

// The same merge on fresh metadata after the catalog said kConflict (another writer's commit
// won), without reading or writing the merged manifests again: fresh's current snapshot lists
// the manifests the merge replaces (fast appends only add manifests in front), so the new
// manifest list is that list with each bin swapped for its merged manifest; the winner's new
// manifests stay as they are. Same snapshot id as `previous` (the merged manifests name it as
// the snapshot that added them), fresh sequence number. nullopt when a replaced manifest is no
// longer there (a compaction rewrote it, another merge ran): plan again with
// PrepareMergeManifests.
Result<std::optional<ManifestMerge>> RebaseMergeManifests(const TableMetadata& fresh, const ManifestMerge& previous);

}  // namespace floe::iceberg
