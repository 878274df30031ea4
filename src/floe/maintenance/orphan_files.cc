#include "floe/maintenance/orphan_files.h"

#include <nlohmann/json.hpp>

#include <set>
#include <utility>

#include "floe/iceberg/metadata_files.h"
#include "floe/maintenance/table_files_internal.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {
namespace {

constexpr std::int64_t kMinOrphanAgeMs = 60'000;

struct Listed {
  std::string uri;
  std::int64_t size = 0;
  std::optional<std::int64_t> modified_ms;
};

bool NeverTouched(const std::string& relative_path) {
  const std::string path = "/" + relative_path;
  if (path.find("/_delta_log/") != std::string::npos) return true;  // the Delta log's, whatever else shares the location
  return path.size() >= 18 && path.compare(path.size() - 18, 18, "/version-hint.text") == 0;  // Hadoop tables' pointer
}

Status ListInto(storage::FileIO& io, const std::string& relative_dir, std::vector<Listed>& out) {
  FLOE_ASSIGN_OR_RETURN(auto files, io.ListFiles(relative_dir));
  for (auto& f : files) {
    if (NeverTouched(f.relative_path)) continue;
    out.push_back({io.Uri(f.relative_path), f.size, f.modified_ms});
  }
  return Status::OK();
}

// data/ and the metadata directory, through the table location's FileIO (the metadata
// directory through its own when write.metadata.path puts it elsewhere).
Result<std::vector<Listed>> ListTableFiles(const iceberg::TableMetadata& metadata) {
  std::string location = metadata.location;
  while (!location.empty() && location.back() == '/') location.pop_back();
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(location));
  std::vector<Listed> out;
  FLOE_RETURN_IF_ERROR(ListInto(io, "data", out));
  const std::string metadata_dir = iceberg::MetadataDirectory(metadata);
  if (metadata_dir.rfind(location + "/", 0) == 0) {
    FLOE_RETURN_IF_ERROR(ListInto(io, metadata_dir.substr(location.size() + 1), out));
  } else {
    FLOE_ASSIGN_OR_RETURN(auto metadata_io, storage::FileIO::Open(metadata_dir));
    FLOE_RETURN_IF_ERROR(ListInto(metadata_io, "", out));
  }
  return out;
}

void AddStatisticsPaths(const std::vector<iceberg::StatisticsFile>& files, std::vector<std::string>& out) {
  for (const auto& f : files) {
    auto j = nlohmann::json::parse(f.json, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("statistics-path") && j["statistics-path"].is_string()) {
      out.push_back(j["statistics-path"].get<std::string>());
    }
  }
}

// Every file the metadata references (header: IcebergReferencedFiles).
Result<std::vector<std::string>> ReferencedPaths(const catalog::LoadedTable& table) {
  const iceberg::TableMetadata& metadata = table.metadata;
  std::vector<std::string> out{table.metadata_location};
  for (const auto& entry : metadata.metadata_log) out.push_back(entry.metadata_file);
  AddStatisticsPaths(metadata.statistics, out);
  AddStatisticsPaths(metadata.partition_statistics, out);
  std::vector<std::int64_t> ids;
  for (const auto& s : metadata.snapshots) ids.push_back(s.snapshot_id);
  FLOE_ASSIGN_OR_RETURN(auto manifests, CollectManifests(metadata, ids));
  for (const auto& list : manifests.manifest_lists) out.push_back(list);
  for (const auto& [path, m] : manifests.manifests) out.push_back(path);
  FLOE_ASSIGN_OR_RETURN(auto files, CollectFiles(metadata, manifests.manifests, /*all_entries=*/false));
  for (auto& [path, size] : files) out.push_back(path);
  return out;
}

// Keys (PathKey) of every file the metadata and the caller say is live.
Result<std::set<std::string>> LiveKeys(const catalog::LoadedTable& table, const OrphanOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto referenced, ReferencedPaths(table));
  std::set<std::string> live = ExtraLiveKeys(table.metadata.location, options.extra_live_paths);
  for (const auto& path : referenced) live.insert(PathKey(path));
  return live;
}

Result<OrphanReport> Remove(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                            const OrphanOptions& options) {
  if (options.older_than.count() < kMinOrphanAgeMs) {
    return Status::InvalidArgument("orphan age must be at least 1 minute: younger unreferenced files may be in-flight "
                                   "writes");
  }
  const std::int64_t now_ms = options.now_ms.value_or(iceberg::NowMillis());
  const std::int64_t cutoff = now_ms - options.older_than.count();
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(auto listed, ListTableFiles(table.metadata));
  // Loaded again after the listing: a file committed while listing is live in this metadata.
  FLOE_ASSIGN_OR_RETURN(table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(auto live, LiveKeys(table, options));
  OrphanReport report;
  report.files_listed = listed.size();
  std::vector<const Listed*> orphans;
  for (const auto& f : listed) {
    if (live.count(PathKey(f.uri))) {
      ++report.live_files;
    } else if (!f.modified_ms || *f.modified_ms >= cutoff) {
      ++report.young_files;
    } else {
      orphans.push_back(&f);
    }
  }
  std::size_t attempted = 0;
  for (const Listed* f : orphans) {
    if (!options.dry_run) {
      if (options.before_delete) options.before_delete(attempted++, orphans.size());
      const Status st = DeleteFileAt(f->uri);
      if (!st.ok()) {
        if (report.delete_failures++ == 0) report.first_delete_error = st.ToString();
        continue;
      }
    }
    report.orphans.push_back(f->uri);
    report.orphan_bytes += f->size > 0 ? f->size : 0;
  }
  return report;
}

}  // namespace

Result<OrphanReport> RemoveOrphanFiles(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                       const OrphanOptions& options) {
  auto report = Remove(catalog, id, options);
  if (!report.ok()) return report.status().WithContext("removing orphan files of " + catalog::TableIdentifierToString(id));
  return report;
}

Result<std::vector<std::string>> IcebergReferencedFiles(catalog::TableCatalog& catalog,
                                                        const catalog::TableIdentifier& id) {
  auto table = catalog.LoadTable(id);
  if (!table.ok()) return table.status().WithContext("listing the files of " + catalog::TableIdentifierToString(id));
  auto paths = ReferencedPaths(*table);
  if (!paths.ok()) return paths.status().WithContext("listing the files of " + catalog::TableIdentifierToString(id));
  return paths;
}

}  // namespace floe::maintenance
