#include "floe/maintenance/compaction.h"

#include <map>
#include <utility>
#include <vector>

#include "floe/columnar/partitioner.h"
#include "floe/iceberg/replace_files.h"
#include "floe/iceberg/table_scan.h"
#include "floe/maintenance/merge_files_internal.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {
namespace {

struct Group {
  int spec_id = 0;
  std::vector<schema::PartitionValue> partition;
  std::vector<iceberg::DataFile> files;  // in listing order
};

// The groups worth merging: small files per (spec, partition tuple), kept when there are at
// least two and the merge writes fewer files than it removes.
std::vector<Group> PlanGroups(const std::vector<iceberg::DataFile>& live, std::int64_t target_rows) {
  std::map<std::pair<int, std::vector<schema::PartitionValue>>, Group> by_key;
  for (const auto& f : live) {
    if (f.record_count >= target_rows) continue;
    Group& g = by_key[{f.spec_id, f.partition}];
    g.spec_id = f.spec_id;
    g.partition = f.partition;
    g.files.push_back(f);
  }
  std::vector<Group> groups;
  for (auto& [key, group] : by_key) {
    std::int64_t rows = 0;
    for (const auto& f : group.files) rows += f.record_count;
    const std::int64_t outputs = (rows + target_rows - 1) / target_rows;
    if (group.files.size() < 2 || outputs >= static_cast<std::int64_t>(group.files.size())) continue;
    groups.push_back(std::move(group));
  }
  return groups;
}

// What the replace commit swaps: the planned small files for the merged ones.
struct Plan {
  std::vector<std::string> to_delete;
  std::vector<iceberg::DataFile> to_add;
};

Result<Plan> WriteMergedFiles(const iceberg::TableMetadata& metadata, const std::vector<Group>& groups,
                              std::int64_t target_rows) {
  const schema::Schema* schema = metadata.CurrentSchema();
  if (!schema) return Status::InvalidArgument("table metadata has no current schema");
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, schema::ToArrowSchema(*schema));
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(metadata.location));
  Plan plan;
  for (const auto& group : groups) {
    MergeOutput output{&io, "", schema, arrow_schema, group.spec_id, group.partition, target_rows};
    // The partition directory is only a convention (readers find files through manifests):
    // a tuple that has no path form under the current schema goes directly under data/.
    if (const schema::PartitionSpec* spec = metadata.SpecById(group.spec_id)) {
      if (auto partitioner = columnar::Partitioner::Make(*schema, *spec, arrow_schema); partitioner.ok()) {
        if (auto path = partitioner->Path(group.partition); path.ok()) output.directory = *path;
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto merged, MergeDataFiles(group.files, output));
    for (const auto& f : group.files) plan.to_delete.push_back(f.file_path);
    for (auto& f : merged) plan.to_add.push_back(std::move(f));
  }
  return plan;
}

struct Committed {
  catalog::LoadedTable table;
  std::int64_t snapshot_id = 0;
  int attempts = 0;
};

// Commits `plan` as a replace snapshot on `base`, and on kConflict from the catalog on freshly
// loaded metadata. PrepareReplaceFiles' own kConflict (a planned file is no longer live) is
// final for this plan: the attempt reports it as no commit (nullopt) so that RetryOnConflict
// does not retry it, and it is returned as is.
Result<Committed> CommitPlan(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                             catalog::LoadedTable base, const Plan& plan, const CompactionOptions& options) {
  Status stale_plan;
  auto attempt = [&](int n) -> Result<std::optional<Committed>> {
    if (n > 1) {
      FLOE_ASSIGN_OR_RETURN(base, catalog.LoadTable(id));
    }
    auto commit = iceberg::PrepareReplaceFiles(base.metadata, plan.to_delete, plan.to_add);
    if (commit.status().code() == StatusCode::kConflict) {
      stale_plan = commit.status();
      return std::optional<Committed>();
    }
    if (!commit.ok()) return commit.status();
    if (n == 1 && options.before_first_commit) FLOE_RETURN_IF_ERROR(options.before_first_commit());
    FLOE_ASSIGN_OR_RETURN(auto committed, catalog.CommitTable({id, commit->requirements, commit->updates}));
    return std::optional<Committed>(Committed{std::move(committed), commit->snapshot_id, n});
  };
  FLOE_ASSIGN_OR_RETURN(auto committed, RetryOnConflict(attempt, options.max_commit_attempts));
  if (!committed) return stale_plan;
  return std::move(*committed);
}

Result<CompactionReport> Compact(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                 const CompactionOptions& options) {
  if (options.target_rows <= 0) return Status::InvalidArgument("target rows must be positive");
  if (options.max_commit_attempts < 1) return Status::InvalidArgument("max commit attempts must be at least 1");
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(table.metadata));
  CompactionReport report;
  report.files_before = live.size();
  const std::vector<Group> groups = PlanGroups(live, options.target_rows);
  if (groups.empty()) {
    report.files_after = live.size();
    report.snapshot_id = table.metadata.current_snapshot_id;
    report.metadata_location = table.metadata_location;
    return report;
  }
  FLOE_ASSIGN_OR_RETURN(auto plan, WriteMergedFiles(table.metadata, groups, options.target_rows));
  report.rewritten_files = plan.to_delete.size();
  report.added_files = plan.to_add.size();
  FLOE_ASSIGN_OR_RETURN(auto committed, CommitPlan(catalog, id, std::move(table), plan, options));
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
  auto report = Compact(catalog, id, options);
  if (!report.ok()) return report.status().WithContext("compacting " + catalog::TableIdentifierToString(id));
  return report;
}

}  // namespace floe::maintenance
