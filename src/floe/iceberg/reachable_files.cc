#include "floe/iceberg/reachable_files.h"

#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/table_scan_internal.h"

namespace floe::iceberg {

Result<std::vector<SnapshotManifest>> ListSnapshotManifests(const Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) {
    return Status::Unsupported("snapshot " + std::to_string(snapshot.snapshot_id) +
                               " uses v1 inline manifests instead of a manifest list; rewrite the table with a newer "
                               "writer");
  }
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(snapshot.manifest_list));
  std::vector<SnapshotManifest> out;
  out.reserve(manifests.size());
  for (const auto& m : manifests) {
    out.push_back({m.manifest_path, m.manifest_length, m.partition_spec_id, m.content != 0});
  }
  return out;
}

Result<std::vector<ManifestListedFile>> ListManifestFiles(const TableMetadata& metadata,
                                                          const SnapshotManifest& manifest) {
  const schema::PartitionSpec* spec = metadata.SpecById(manifest.partition_spec_id);
  if (!spec) {
    return Status::InvalidArgument("manifest " + manifest.path + " names partition spec " +
                                   std::to_string(manifest.partition_spec_id) + ", which the table does not have");
  }
  const schema::Schema* schema = SchemaForSpec(metadata, *spec);
  if (!schema) {
    return Status::InvalidArgument("manifest " + manifest.path +
                                   ": no schema of the table has the source columns of partition spec " +
                                   std::to_string(spec->spec_id));
  }
  ManifestFile file;
  file.manifest_path = manifest.path;
  file.manifest_length = manifest.length;
  file.partition_spec_id = manifest.partition_spec_id;
  file.content = manifest.deletes ? 1 : 0;
  FLOE_ASSIGN_OR_RETURN(auto entries, ReadManifest(file, *schema, *spec));
  std::vector<ManifestListedFile> out;
  out.reserve(entries.size());
  for (const auto& e : entries) {
    out.push_back({e.data_file.file_path, e.data_file.file_size_in_bytes, e.status != EntryStatus::kDeleted});
  }
  return out;
}

}  // namespace floe::iceberg
