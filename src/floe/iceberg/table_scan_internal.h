#pragma once
// The manifest level of table_scan.h: a snapshot's manifests with their entries, which
// LiveDataFiles and replace files build on.
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/manifest_internal.h"
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

// The schema manifests of `spec` are read with: the current schema when the spec's
// partition type can be derived from it, else the newest schema that can (a source column
// dropped since the spec was written). nullptr if none.
const schema::Schema* SchemaForSpec(const TableMetadata& metadata, const schema::PartitionSpec& spec);

}  // namespace floe::iceberg
