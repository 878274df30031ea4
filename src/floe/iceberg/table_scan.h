#pragma once
// Listing what a snapshot holds: its manifests (from the manifest list) with their entries,
// and the live data files (status ADDED or EXISTING). This is the planning step of a scan,
// without filters: maintenance (compaction, orphan-file removal) needs every file.
//
// Delete files (merge-on-read position/equality deletes, written by other engines) are not
// supported yet: Floe writes none, and a snapshot that has any is kUnsupported here rather
// than listed as if its data files had no deletes applied.
#include <cstdint>
#include <optional>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/iceberg/manifest.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

struct ManifestWithEntries {
  ManifestFile manifest;
  std::vector<ManifestEntry> entries;  // as ReadManifest returns them (inherited values filled in)
};

// The manifests of `snapshot`'s list, each with its entries, in list order. kUnsupported
// for delete manifests / delete-file entries and for v1 snapshots without a manifest list;
// kInvalidArgument when a manifest names a partition spec the metadata does not have.
Result<std::vector<ManifestWithEntries>> ReadSnapshotManifests(const TableMetadata& metadata,
                                                               const Snapshot& snapshot);

// The live data files of a snapshot (default: the current one; none when the table has no
// snapshot). kNotFound for an unknown snapshot id; kUnsupported as above.
Result<std::vector<DataFile>> LiveDataFiles(const TableMetadata& metadata,
                                            std::optional<std::int64_t> snapshot_id = std::nullopt);

// The schema manifests of `spec` are read with: the current schema when the spec's
// partition type can be derived from it, else the newest schema that can (a source column
// dropped since the spec was written). nullptr if none.
const schema::Schema* SchemaForSpec(const TableMetadata& metadata, const schema::PartitionSpec& spec);

}  // namespace floe::iceberg
