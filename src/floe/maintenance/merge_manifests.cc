#include "floe/maintenance/merge_manifests.h"

#include <utility>

#include "floe/iceberg/rewrite_manifests.h"

namespace floe::maintenance {
namespace {

Result<ManifestMergeReport> Merge(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                  const ManifestMergeOptions& options) {
  if (options.min_count_to_merge && *options.min_count_to_merge < 2) {
    return Status::InvalidArgument("manifest min count to merge must be at least 2");
  }
  if (options.target_size_bytes && *options.target_size_bytes <= 0) {
    return Status::InvalidArgument("manifest target size must be positive");
  }
  if (options.max_commit_attempts < 1) return Status::InvalidArgument("max commit attempts must be at least 1");
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  ManifestMergeReport report;
  // After a lost race the current snapshot has the winner's new manifest in front of the ones
  // merged: the merge is rebased on it (the merged manifests reused, so that a retry costs one
  // manifest list, not a re-read of every merged manifest, and keeps up with 1 s commits), or
  // planned again when the manifests it merged are gone.
  std::optional<iceberg::ManifestMerge> previous;
  auto attempt = [&](int n) -> Status {
    std::optional<iceberg::ManifestMerge> merge;
    if (n > 1) {
      FLOE_ASSIGN_OR_RETURN(table, catalog.LoadTable(id));
      if (previous) {
        FLOE_ASSIGN_OR_RETURN(merge, iceberg::RebaseMergeManifests(table.metadata, *previous));
      }
    }
    if (!merge) {
      iceberg::ManifestMergeSettings settings = iceberg::ManifestMergeSettingsOf(table.metadata);
      if (options.min_count_to_merge) settings.min_count_to_merge = *options.min_count_to_merge;
      if (options.target_size_bytes) settings.target_size_bytes = *options.target_size_bytes;
      FLOE_ASSIGN_OR_RETURN(merge, iceberg::PrepareMergeManifests(table.metadata, settings, options.dry_run));
    }
    report.manifests_before = merge->manifests_before;
    report.manifests_replaced = merge->manifests_replaced;
    report.manifests_created = merge->manifests_created;
    report.manifests_after = merge->manifests_after;
    report.snapshot_id = table.metadata.current_snapshot_id;
    report.metadata_location = table.metadata_location;
    if (!merge->commit) return Status::OK();
    report.attempts = n;
    previous = merge;
    FLOE_ASSIGN_OR_RETURN(auto committed,
                          catalog.CommitTable({id, merge->commit->requirements, merge->commit->updates}));
    report.snapshot_id = merge->commit->snapshot_id;
    report.metadata_location = committed.metadata_location;
    return Status::OK();
  };
  FLOE_RETURN_IF_ERROR(RetryOnConflict(attempt, options.max_commit_attempts));
  return report;
}

}  // namespace

Result<ManifestMergeReport> MergeManifests(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                           const ManifestMergeOptions& options) {
  auto report = Merge(catalog, id, options);
  if (!report.ok()) return report.status().WithContext("merging manifests of " + catalog::TableIdentifierToString(id));
  return report;
}

}  // namespace floe::maintenance
