#pragma once
// The files a table's snapshots reference, at the level maintenance needs them (snapshot
// expiry, orphan-file removal): which manifests a snapshot's manifest list names, and which
// files a manifest lists. Unlike table_scan.h, delete manifests and delete files are listed
// too: a file is a file, whatever it holds, and must not be removed while referenced.
#include <cstdint>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

struct SnapshotManifest {
  std::string path;  // absolute, as the manifest list has it
  std::int64_t length = 0;
  int partition_spec_id = 0;
  bool deletes = false;  // a delete manifest (content 1)
};

struct ManifestListedFile {
  std::string path;  // absolute, as the manifest has it
  std::int64_t size = 0;
  bool live = true;  // status ADDED or EXISTING; false: DELETED (the file is not in this snapshot)
};

// The manifests of a snapshot's manifest list, in list order. kUnsupported for v1 snapshots
// that list manifests inline instead of in a manifest list.
Result<std::vector<SnapshotManifest>> ListSnapshotManifests(const Snapshot& snapshot);

// Every entry of a manifest (data or delete files). kInvalidArgument when the manifest names a
// partition spec the metadata does not have.
Result<std::vector<ManifestListedFile>> ListManifestFiles(const TableMetadata& metadata,
                                                          const SnapshotManifest& manifest);

}  // namespace floe::iceberg
