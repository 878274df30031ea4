#include "floe/maintenance/expire_snapshots.h"

#include <algorithm>
#include <set>
#include <utility>

#include "floe/maintenance/table_files_internal.h"

namespace floe::maintenance {
namespace {

using iceberg::Snapshot;
using iceberg::TableMetadata;

// The snapshots to expire, oldest first (header: "Which snapshots are kept").
std::vector<std::int64_t> PlanExpiry(const TableMetadata& metadata, std::int64_t now_ms, const ExpiryOptions& options) {
  std::set<std::int64_t> kept;
  std::set<std::int64_t> in_ref_ancestry;
  auto walk = [&](std::int64_t head, auto&& visit) {
    for (const Snapshot* s = metadata.SnapshotById(head); s;
         s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      if (!visit(*s)) return;
    }
  };
  for (const auto& [name, ref] : metadata.refs) {
    kept.insert(ref.snapshot_id);
    walk(ref.snapshot_id, [&](const Snapshot& s) { return in_ref_ancestry.insert(s.snapshot_id).second; });
    if (ref.type != iceberg::SnapshotRefType::kBranch) continue;
    const int min_keep = ref.min_snapshots_to_keep.value_or(options.min_snapshots);
    const int max_keep = std::max(min_keep, options.max_snapshots);
    const std::int64_t cutoff = now_ms - ref.max_snapshot_age_ms.value_or(options.retention.count());
    int count = 0;
    walk(ref.snapshot_id, [&](const Snapshot& s) {
      if (count >= min_keep && (s.timestamp_ms < cutoff || count >= max_keep)) return false;
      kept.insert(s.snapshot_id);
      ++count;
      return true;
    });
  }
  // The chain the pipeline walks to find its committed offsets (sink/iceberg_offsets.h).
  if (auto head = metadata.RefSnapshotId(iceberg::kMainBranch)) {
    std::vector<std::int64_t> chain;
    bool found = false;
    walk(*head, [&](const Snapshot& s) {
      chain.push_back(s.snapshot_id);
      found = s.SummaryValue(iceberg::kSummaryFloeOffsets).has_value();
      return !found;
    });
    if (found) kept.insert(chain.begin(), chain.end());
  }
  const std::int64_t cutoff = now_ms - options.retention.count();
  std::vector<const Snapshot*> expired;
  for (const auto& s : metadata.snapshots) {
    if (kept.count(s.snapshot_id)) continue;
    if (!in_ref_ancestry.count(s.snapshot_id) && s.timestamp_ms >= cutoff) continue;  // unreferenced, young
    expired.push_back(&s);
  }
  std::stable_sort(expired.begin(), expired.end(),
                   [](const Snapshot* a, const Snapshot* b) { return a->timestamp_ms < b->timestamp_ms; });
  std::vector<std::int64_t> ids;
  ids.reserve(expired.size());
  for (const Snapshot* s : expired) ids.push_back(s->snapshot_id);
  return ids;
}

// Files to delete once `expired` are gone from `before`, leaving `retained` (read in `after`).
struct Deletions {
  std::vector<std::string> manifest_lists;
  std::vector<std::pair<std::string, std::int64_t>> manifests;   // path, length
  std::vector<std::pair<std::string, std::int64_t>> data_files;  // path, size
};

Result<Deletions> PlanDeletions(const TableMetadata& before, const std::vector<std::int64_t>& expired,
                                const TableMetadata& after, const std::vector<std::int64_t>& retained,
                                const std::vector<std::string>& extra_live_paths) {
  FLOE_ASSIGN_OR_RETURN(auto gone, CollectManifests(before, expired));
  FLOE_ASSIGN_OR_RETURN(auto kept, CollectManifests(after, retained));
  std::set<std::string> kept_keys;
  for (const auto& list : kept.manifest_lists) kept_keys.insert(PathKey(list));
  for (const auto& [path, m] : kept.manifests) kept_keys.insert(PathKey(path));
  Deletions out;
  for (const auto& list : gone.manifest_lists) {
    if (!kept_keys.count(PathKey(list))) out.manifest_lists.push_back(list);
  }
  std::map<std::string, iceberg::SnapshotManifest> doomed;
  for (const auto& [path, m] : gone.manifests) {
    if (kept_keys.count(PathKey(path))) continue;
    out.manifests.emplace_back(path, m.length);
    doomed.emplace(path, m);
  }
  if (doomed.empty()) return out;
  FLOE_ASSIGN_OR_RETURN(auto candidates, CollectFiles(before, doomed, /*all_entries=*/true));
  if (candidates.empty()) return out;
  FLOE_ASSIGN_OR_RETURN(auto live, CollectFiles(after, kept.manifests, /*all_entries=*/false));
  std::set<std::string> live_keys = ExtraLiveKeys(after.location, extra_live_paths);
  for (const auto& [path, size] : live) live_keys.insert(PathKey(path));
  for (const auto& [path, size] : candidates) {
    if (!live_keys.count(PathKey(path))) out.data_files.emplace_back(path, size);
  }
  return out;
}

std::vector<std::int64_t> SnapshotIds(const TableMetadata& metadata, const std::vector<std::int64_t>& except = {}) {
  const std::set<std::int64_t> skip(except.begin(), except.end());
  std::vector<std::int64_t> ids;
  for (const auto& s : metadata.snapshots) {
    if (!skip.count(s.snapshot_id)) ids.push_back(s.snapshot_id);
  }
  return ids;
}

void Record(const Deletions& d, ExpiryReport& report) {
  for (const auto& p : d.manifest_lists) report.deleted_paths.push_back(p);
  for (const auto& [p, n] : d.manifests) report.deleted_paths.push_back(p);
  for (const auto& [p, n] : d.data_files) report.deleted_paths.push_back(p);
}

void Delete(const Deletions& d, const ExpiryOptions& options, ExpiryReport& report) {
  const std::size_t total = d.manifest_lists.size() + d.manifests.size() + d.data_files.size();
  std::size_t attempted = 0;
  auto remove = [&](const std::string& path, std::size_t& count, std::int64_t bytes) {
    if (options.before_delete) options.before_delete(attempted++, total);
    const Status st = DeleteFileAt(path);
    if (!st.ok()) {
      if (report.delete_failures++ == 0) report.first_delete_error = st.ToString();
      return;
    }
    report.deleted_paths.push_back(path);
    ++count;
    report.deleted.bytes += bytes;
  };
  // Any order is safe: nothing the committed metadata reaches is in `d`.
  for (const auto& p : d.manifest_lists) remove(p, report.deleted.manifest_lists, 0);
  for (const auto& [p, n] : d.manifests) remove(p, report.deleted.manifests, n);
  for (const auto& [p, n] : d.data_files) remove(p, report.deleted.data_files, n);
}

struct ExpiryCommitted {
  TableMetadata before;
  catalog::LoadedTable after;
  std::vector<std::int64_t> expired;
  int attempts = 0;
};

// Reload, plan from metadata alone, commit: the window for another writer is one metadata read.
Result<std::optional<ExpiryCommitted>> Commit(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                              catalog::LoadedTable table, std::int64_t now_ms,
                                              const ExpiryOptions& options) {
  auto attempt = [&](int n) -> Result<std::optional<ExpiryCommitted>> {
    if (n > 1) {
      FLOE_ASSIGN_OR_RETURN(table, catalog.LoadTable(id));
    }
    auto expired = PlanExpiry(table.metadata, now_ms, options);
    if (expired.empty()) return std::optional<ExpiryCommitted>();
    catalog::TableChange change{id, {}, {}};
    change.requirements.push_back(iceberg::AssertTableUuid{table.metadata.table_uuid});
    for (const auto& [name, ref] : table.metadata.refs) {
      change.requirements.push_back(iceberg::AssertRefSnapshotId{name, ref.snapshot_id});
    }
    change.updates.push_back(iceberg::RemoveSnapshotsUpdate{expired});
    FLOE_ASSIGN_OR_RETURN(auto after, catalog.CommitTable(change));
    return std::optional<ExpiryCommitted>(ExpiryCommitted{table.metadata, std::move(after), std::move(expired), n});
  };
  return RetryOnConflict(attempt, options.max_commit_attempts);
}

Result<ExpiryReport> Expire(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                            const ExpiryOptions& options) {
  if (options.retention.count() < 0) return Status::InvalidArgument("snapshot retention must not be negative");
  if (options.min_snapshots < 1) return Status::InvalidArgument("min snapshots must be at least 1");
  if (options.max_snapshots < 1) return Status::InvalidArgument("max snapshots must be at least 1");
  if (options.max_commit_attempts < 1) return Status::InvalidArgument("max commit attempts must be at least 1");
  const std::int64_t now_ms = options.now_ms.value_or(iceberg::NowMillis());
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  ExpiryReport report;
  report.snapshots_before = table.metadata.snapshots.size();
  report.snapshots_after = report.snapshots_before;
  report.metadata_location = table.metadata_location;
  if (options.dry_run) {
    report.expired_snapshot_ids = PlanExpiry(table.metadata, now_ms, options);
    if (report.expired_snapshot_ids.empty()) return report;
    FLOE_ASSIGN_OR_RETURN(auto plan, PlanDeletions(table.metadata, report.expired_snapshot_ids, table.metadata,
                                                   SnapshotIds(table.metadata, report.expired_snapshot_ids),
                                                   options.extra_live_paths));
    Record(plan, report);
    report.deleted.manifest_lists = plan.manifest_lists.size();
    report.deleted.manifests = plan.manifests.size();
    report.deleted.data_files = plan.data_files.size();
    for (const auto& [p, n] : plan.manifests) report.deleted.bytes += n;
    for (const auto& [p, n] : plan.data_files) report.deleted.bytes += n;
    report.snapshots_after = report.snapshots_before - report.expired_snapshot_ids.size();
    return report;
  }
  FLOE_ASSIGN_OR_RETURN(auto committed, Commit(catalog, id, std::move(table), now_ms, options));
  if (!committed) return report;
  report.expired_snapshot_ids = committed->expired;
  report.attempts = committed->attempts;
  report.snapshots_before = committed->before.snapshots.size();
  report.snapshots_after = committed->after.metadata.snapshots.size();
  report.metadata_location = committed->after.metadata_location;
  // The commit landed: from here on a failure leaves orphans, never a dangling reference.
  if (options.after_commit) options.after_commit();
  auto plan = PlanDeletions(committed->before, committed->expired, committed->after.metadata,
                            SnapshotIds(committed->after.metadata), options.extra_live_paths);
  if (!plan.ok()) {
    report.delete_failures = 1;
    report.first_delete_error = plan.status().WithContext("finding the files to delete").ToString();
    return report;
  }
  Delete(*plan, options, report);
  return report;
}

}  // namespace

Result<ExpiryReport> ExpireSnapshots(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                     const ExpiryOptions& options) {
  auto report = Expire(catalog, id, options);
  if (!report.ok()) return report.status().WithContext("expiring snapshots of " + catalog::TableIdentifierToString(id));
  return report;
}

}  // namespace floe::maintenance
