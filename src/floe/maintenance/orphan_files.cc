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

void AddStatisticsPaths(const std::vector<iceberg::StatisticsFile>& files, std::set<std::string>& live) {
  for (const auto& f : files) {
    auto j = nlohmann::json::parse(f.json, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("statistics-path") && j["statistics-path"].is_string()) {
      live.insert(PathKey(j["statistics-path"].get<std::string>()));
    }
  }
}

bool IsRelative(const std::string& path) {
  const auto colon = path.find(':');
  return !path.empty() && path.front() != '/' && (colon == std::string::npos || path.find('/') < colon);
}

// Keys (PathKey) of every file the metadata and the caller say is live.
Result<std::set<std::string>> LiveKeys(const catalog::LoadedTable& table, const OrphanOptions& options) {
  const iceberg::TableMetadata& metadata = table.metadata;
  std::set<std::string> live;
  live.insert(PathKey(table.metadata_location));
  for (const auto& entry : metadata.metadata_log) live.insert(PathKey(entry.metadata_file));
  AddStatisticsPaths(metadata.statistics, live);
  AddStatisticsPaths(metadata.partition_statistics, live);
  std::vector<std::int64_t> ids;
  for (const auto& s : metadata.snapshots) ids.push_back(s.snapshot_id);
  FLOE_ASSIGN_OR_RETURN(auto manifests, CollectManifests(metadata, ids));
  for (const auto& list : manifests.manifest_lists) live.insert(PathKey(list));
  for (const auto& [path, m] : manifests.manifests) live.insert(PathKey(path));
  FLOE_ASSIGN_OR_RETURN(auto files, CollectFiles(metadata, manifests.manifests, /*all_entries=*/false));
  for (const auto& [path, size] : files) live.insert(PathKey(path));
  std::string location = metadata.location;
  while (!location.empty() && location.back() == '/') location.pop_back();
  for (const auto& path : options.extra_live_paths) {
    live.insert(PathKey(IsRelative(path) ? location + "/" + path : path));
  }
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
  for (const Listed* f : orphans) {
    if (!options.dry_run) {
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

}  // namespace floe::maintenance
