#include <arrow/filesystem/filesystem.h>

#include "floe/core/arrow_interop.h"
#include "floe/maintenance/table_files_internal.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {

std::string PathKey(std::string_view location) {
  std::string_view rest = location;
  // A scheme is letters, digits, '+', '-', '.' before the first ':' (and before any '/').
  if (const auto colon = rest.find(':'); colon != std::string_view::npos && colon > 0) {
    const std::string_view scheme = rest.substr(0, colon);
    const bool is_scheme = scheme.find_first_not_of(
                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.") == std::string_view::npos;
    if (is_scheme) {
      rest.remove_prefix(colon + 1);
      if (rest.substr(0, 2) == "//") {
        rest.remove_prefix(2);
        const auto slash = rest.find('/');
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
      }
    }
  }
  std::string key;
  key.reserve(rest.size() + 1);
  if (rest.empty() || rest.front() != '/') key.push_back('/');
  for (char c : rest) {
    if (c == '/' && !key.empty() && key.back() == '/') continue;
    key.push_back(c);
  }
  return key;
}

std::set<std::string> ExtraLiveKeys(std::string_view table_location, const std::vector<std::string>& paths) {
  std::string location(table_location);
  while (!location.empty() && location.back() == '/') location.pop_back();
  std::set<std::string> keys;
  for (const auto& path : paths) {
    const auto colon = path.find(':');
    const bool relative = !path.empty() && path.front() != '/' && (colon == std::string::npos || path.find('/') < colon);
    keys.insert(PathKey(relative ? location + "/" + path : path));
  }
  return keys;
}

Result<SnapshotsManifests> CollectManifests(const iceberg::TableMetadata& metadata,
                                            const std::vector<std::int64_t>& snapshot_ids) {
  SnapshotsManifests out;
  for (std::int64_t id : snapshot_ids) {
    const iceberg::Snapshot* snapshot = metadata.SnapshotById(id);
    if (!snapshot) continue;
    auto manifests = iceberg::ListSnapshotManifests(*snapshot);
    if (!manifests.ok()) return manifests.status().WithContext("snapshot " + std::to_string(id));
    out.manifest_lists.insert(snapshot->manifest_list);
    for (auto& m : *manifests) out.manifests.emplace(m.path, std::move(m));
  }
  return out;
}

Result<std::map<std::string, std::int64_t>> CollectFiles(const iceberg::TableMetadata& metadata,
                                                         const std::map<std::string, iceberg::SnapshotManifest>& manifests,
                                                         bool all_entries) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [path, manifest] : manifests) {
    FLOE_ASSIGN_OR_RETURN(auto files, iceberg::ListManifestFiles(metadata, manifest));
    for (auto& f : files) {
      if (f.live || all_entries) out.emplace(std::move(f.path), f.size);
    }
  }
  return out;
}

}  // namespace floe::maintenance
