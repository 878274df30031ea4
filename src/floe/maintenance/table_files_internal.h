#pragma once
// Files of a table as expiry and orphan removal see them: comparable keys for the many ways
// engines spell one location, deletion by absolute URI, and what a set of snapshots
// references.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/reachable_files.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {

// The path of a location without scheme and authority, with repeated '/' collapsed:
// "file:///a/b", "file:/a/b", "/a/b" -> "/a/b"; "s3://bucket/a/b", "s3a://bucket/a/b" ->
// "/a/b". Two spellings of one file get the same key; files of different buckets may too,
// which only ever makes a file look referenced (the safe side).
std::string PathKey(std::string_view location);

// Keys of files another format's log references: absolute URIs (any spelling) or paths
// relative to the table location ("data/x.parquet").
std::set<std::string> ExtraLiveKeys(std::string_view table_location, const std::vector<std::string>& paths);

using storage::DeleteFileAt;

// The manifest lists and manifests some snapshots of a table reference.
struct SnapshotsManifests {
  std::set<std::string> manifest_lists;                        // absolute paths as the metadata has them
  std::map<std::string, iceberg::SnapshotManifest> manifests;  // by path, each once
};
// Reads the manifest list of each snapshot in `snapshot_ids` (ids the metadata lacks are
// skipped).
Result<SnapshotsManifests> CollectManifests(const iceberg::TableMetadata& metadata,
                                            const std::vector<std::int64_t>& snapshot_ids);

// The files `manifests` list, path -> size: the live ones (ADDED or EXISTING) only, or with
// all_entries the DELETED entries' files too.
Result<std::map<std::string, std::int64_t>> CollectFiles(const iceberg::TableMetadata& metadata,
                                                         const std::map<std::string, iceberg::SnapshotManifest>& manifests,
                                                         bool all_entries);

}  // namespace floe::maintenance
