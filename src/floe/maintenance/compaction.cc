#include "floe/maintenance/compaction.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "floe/columnar/partitioner.h"
#include "floe/iceberg/replace_files.h"
#include "floe/iceberg/table_scan.h"
#include "floe/maintenance/bin_pack_internal.h"
#include "floe/maintenance/merge_files_internal.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {
namespace {

struct IcebergGroup {
  int spec_id = 0;
  std::vector<schema::PartitionValue> partition;
  std::vector<iceberg::DataFile> files;  // in listing order
  std::int64_t rows = 0;
  std::int64_t bytes = 0;
  std::int64_t rows_per_file = 0;
};

// The groups worth merging: small files per (spec, partition tuple), of each its smallest size
// tier, kept when there are at least two and the merge writes fewer files than it removes.
std::vector<IcebergGroup> PlanIcebergGroups(const std::vector<iceberg::DataFile>& live,
                                            const CompactionOptions& options) {
  std::map<std::pair<int, std::vector<schema::PartitionValue>>, IcebergGroup> by_key;
  for (const auto& f : live) {
    if (!IsSmallFile(f.file_size_in_bytes, f.record_count, options)) continue;
    IcebergGroup& g = by_key[{f.spec_id, f.partition}];
    g.spec_id = f.spec_id;
    g.partition = f.partition;
    g.files.push_back(f);
  }
  std::vector<IcebergGroup> groups;
  for (auto& [key, all] : by_key) {
    std::vector<std::int64_t> sizes;
    for (const auto& f : all.files) sizes.push_back(f.file_size_in_bytes);
    IcebergGroup group{all.spec_id, all.partition, {}, 0, 0, 0};
    for (std::size_t i : FilesToMergeNow(sizes, options)) {
      group.rows += all.files[i].record_count;
      group.bytes += all.files[i].file_size_in_bytes;
      group.files.push_back(std::move(all.files[i]));
    }
    group.rows_per_file = RowsPerMergedFile(group.bytes, group.rows, options);
    if (!WorthMerging(group.files.size(), group.rows, group.rows_per_file)) continue;
    groups.push_back(std::move(group));
  }
  return groups;
}

// One group's swap: its small files for the merged ones.
struct GroupSwap {
  std::vector<iceberg::DataFile> removed;
  std::vector<iceberg::DataFile> added;
};

Result<std::vector<GroupSwap>> WriteIcebergMergedFiles(const iceberg::TableMetadata& metadata,
                                                       const std::vector<IcebergGroup>& groups) {
  const schema::Schema* schema = metadata.CurrentSchema();
  if (!schema) return Status::InvalidArgument("table metadata has no current schema");
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, schema::ToArrowSchema(*schema));
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(metadata.location));
  // The table's default sort order, when it has one Floe can follow (columns, not transforms).
  std::vector<arrow::compute::SortKey> sort_keys;
  std::optional<int> sort_order_id;
  const schema::SortOrder* order = metadata.DefaultSortOrder();
  if (order && !order->fields.empty()) {
    auto keys = ArrowSortKeys(*order, *schema);
    if (keys.ok()) {
      sort_keys = std::move(*keys);
      sort_order_id = order->order_id;
    } else {
      spdlog::info("compaction: merged files are not sorted: {}", keys.status().ToString());
    }
  }
  std::vector<GroupSwap> swaps;
  for (const auto& group : groups) {
    MergeOutput output{&io, "", schema, arrow_schema, group.spec_id, group.partition, group.rows_per_file,
                       sort_keys, sort_order_id};
    // The partition directory is only a convention (readers find files through manifests):
    // a tuple that has no path form under the current schema goes directly under data/.
    if (const schema::PartitionSpec* spec = metadata.SpecById(group.spec_id)) {
      if (auto partitioner = columnar::Partitioner::Make(*schema, *spec, arrow_schema); partitioner.ok()) {
        if (auto path = partitioner->Path(group.partition); path.ok()) output.directory = *path;
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto merged, MergeDataFiles(group.files, output));
    swaps.push_back({group.files, std::move(merged)});
  }
  return swaps;
}

struct IcebergCommitted {
  catalog::LoadedTable table;
  std::int64_t snapshot_id = 0;
  int attempts = 0;
  std::vector<const GroupSwap*> swaps;  // the groups the replace took
};

// The swaps whose small files are all still live in `metadata` (the rebase: groups that lost a
// file to another writer are given up).
Result<std::vector<const GroupSwap*>> StillLive(const iceberg::TableMetadata& metadata,
                                               const std::vector<GroupSwap>& swaps) {
  FLOE_ASSIGN_OR_RETURN(auto live_files, iceberg::LiveDataFiles(metadata));
  std::set<std::string> live;
  for (const auto& f : live_files) live.insert(f.file_path);
  std::vector<const GroupSwap*> kept;
  for (const auto& swap : swaps) {
    const bool all_live = std::all_of(swap.removed.begin(), swap.removed.end(),
                                      [&](const iceberg::DataFile& f) { return live.count(f.file_path) > 0; });
    if (all_live) kept.push_back(&swap);
  }
  return kept;
}

// Commits the swaps as a replace snapshot on `base`, and after kConflict from the catalog on
// freshly loaded metadata: the same replace rebased on it while the manifests it rewrote are
// still listed, else prepared again with the groups still whole. When no group is left, the attempt
// reports no commit (nullopt) so that RetryOnConflict does not retry it, and kConflict is
// returned.
Result<IcebergCommitted> CommitIcebergSwaps(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                            catalog::LoadedTable base, const std::vector<GroupSwap>& swaps,
                                            const CompactionOptions& options) {
  // The last replace prepared and the swaps it takes: after a lost race it is rebased on the
  // winner (one manifest list read and written) instead of prepared again (every manifest of the
  // table read, the touched ones rewritten), which takes long enough on a table with many
  // manifests to lose every race against 1 s ingestion commits.
  std::optional<iceberg::RebasableReplace> prepared;
  std::vector<const GroupSwap*> prepared_swaps;
  auto attempt = [&](int n) -> Result<std::optional<IcebergCommitted>> {
    std::optional<iceberg::PreparedCommit> commit;
    if (n > 1) {
      FLOE_ASSIGN_OR_RETURN(base, catalog.LoadTable(id));
      if (prepared) {
        FLOE_ASSIGN_OR_RETURN(commit, iceberg::RebaseReplaceFiles(base.metadata, *prepared));
      }
    }
    if (!commit) {
      std::vector<const GroupSwap*> taken;
      if (n > 1) {
        FLOE_ASSIGN_OR_RETURN(taken, StillLive(base.metadata, swaps));
      } else {
        for (const auto& swap : swaps) taken.push_back(&swap);
      }
      if (taken.empty()) return std::optional<IcebergCommitted>();
      std::vector<std::string> to_delete;
      std::vector<iceberg::DataFile> to_add;
      for (const GroupSwap* swap : taken) {
        for (const auto& f : swap->removed) to_delete.push_back(f.file_path);
        to_add.insert(to_add.end(), swap->added.begin(), swap->added.end());
      }
      FLOE_ASSIGN_OR_RETURN(prepared, iceberg::PrepareRebasableReplace(base.metadata, to_delete, to_add));
      prepared_swaps = std::move(taken);
      commit = prepared->commit;
    }
    if (n == 1 && options.before_first_commit) FLOE_RETURN_IF_ERROR(options.before_first_commit());
    FLOE_ASSIGN_OR_RETURN(auto committed, catalog.CommitTable({id, commit->requirements, commit->updates}));
    return std::optional<IcebergCommitted>(
        IcebergCommitted{std::move(committed), commit->snapshot_id, n, prepared_swaps});
  };
  FLOE_ASSIGN_OR_RETURN(auto committed, RetryOnConflict(attempt, options.max_commit_attempts));
  if (!committed) {
    return Status::Conflict("the planned files of every partition are not live any more (another writer removed "
                            "them meanwhile); compact again to plan on the current snapshot");
  }
  return std::move(*committed);
}

Result<CompactionReport> CompactIceberg(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                        const CompactionOptions& options) {
  FLOE_RETURN_IF_ERROR(CheckCompactionOptions(options));
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(table.metadata));
  CompactionReport report;
  report.files_before = live.size();
  report.files_after = live.size();
  report.snapshot_id = table.metadata.current_snapshot_id;
  report.metadata_location = table.metadata_location;
  const std::vector<IcebergGroup> groups = PlanIcebergGroups(live, options);
  if (groups.empty()) return report;
  if (options.dry_run) {
    for (const auto& group : groups) {
      report.rewritten_files += group.files.size();
      report.added_files += static_cast<std::size_t>(MergedFileCount(group.rows, group.rows_per_file));
      report.bytes_rewritten += group.bytes;
      report.removed.insert(report.removed.end(), group.files.begin(), group.files.end());
    }
    return report;
  }
  FLOE_ASSIGN_OR_RETURN(auto swaps, WriteIcebergMergedFiles(table.metadata, groups));
  FLOE_ASSIGN_OR_RETURN(auto committed, CommitIcebergSwaps(catalog, id, std::move(table), swaps, options));
  for (const GroupSwap* swap : committed.swaps) {
    for (const auto& f : swap->removed) report.bytes_rewritten += f.file_size_in_bytes;
    report.removed.insert(report.removed.end(), swap->removed.begin(), swap->removed.end());
    report.added.insert(report.added.end(), swap->added.begin(), swap->added.end());
  }
  report.rewritten_files = report.removed.size();
  report.added_files = report.added.size();
  report.partitions_given_up = swaps.size() - committed.swaps.size();
  FLOE_ASSIGN_OR_RETURN(auto after, iceberg::LiveDataFiles(committed.table.metadata));
  report.files_after = after.size();
  report.snapshot_id = committed.snapshot_id;
  report.metadata_location = committed.table.metadata_location;
  report.attempts = committed.attempts;
  return report;
}

}  // namespace

Result<CompactionReport> CompactTable(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                      const CompactionOptions& options) {
  auto report = CompactIceberg(catalog, id, options);
  if (!report.ok()) return report.status().WithContext("compacting " + catalog::TableIdentifierToString(id));
  return report;
}

}  // namespace floe::maintenance
