#include "floe/iceberg/table_scan.h"

#include <string>

#include "floe/iceberg/table_scan_internal.h"

namespace floe::iceberg {
namespace {

constexpr const char* kNoDeletes =
    "merge-on-read delete files are not supported yet (Floe writes none); rewrite the table's deletes "
    "with the engine that wrote them (e.g. rewrite_data_files / rewrite_position_delete_files) first";

}  // namespace

const schema::Schema* SchemaForSpec(const TableMetadata& metadata, const schema::PartitionSpec& spec) {
  const schema::Schema* current = metadata.CurrentSchema();
  if (current && spec.PartitionType(*current).ok()) return current;
  for (auto it = metadata.schemas.rbegin(); it != metadata.schemas.rend(); ++it) {
    if (spec.PartitionType(*it).ok()) return &*it;
  }
  return nullptr;
}

Result<std::vector<ManifestWithEntries>> ReadSnapshotManifests(const TableMetadata& metadata,
                                                               const Snapshot& snapshot) {
  const std::string where = "snapshot " + std::to_string(snapshot.snapshot_id);
  if (snapshot.manifest_list.empty()) {
    return Status::Unsupported(where + " uses v1 inline manifests instead of a manifest list; "
                               "rewrite the table with a newer writer");
  }
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(snapshot.manifest_list));
  std::vector<ManifestWithEntries> out;
  out.reserve(manifests.size());
  for (auto& m : manifests) {
    if (m.content != 0) {
      return Status::Unsupported(where + " has delete manifest " + m.manifest_path + ": " + kNoDeletes);
    }
    const schema::PartitionSpec* spec = metadata.SpecById(m.partition_spec_id);
    if (!spec) {
      return Status::InvalidArgument(where + ": manifest " + m.manifest_path + " names partition spec " +
                                     std::to_string(m.partition_spec_id) + ", which the table does not have");
    }
    const schema::Schema* schema = SchemaForSpec(metadata, *spec);
    if (!schema) {
      return Status::InvalidArgument(where + ": no schema of the table has the source columns of partition spec " +
                                     std::to_string(spec->spec_id));
    }
    FLOE_ASSIGN_OR_RETURN(auto entries, ReadManifest(m, *schema, *spec));
    for (const auto& e : entries) {
      if (e.content != FileContent::kData) {
        return Status::Unsupported(where + ": manifest " + m.manifest_path + " lists delete file " +
                                   e.data_file.file_path + ": " + kNoDeletes);
      }
    }
    out.push_back({std::move(m), std::move(entries)});
  }
  return out;
}

Result<std::vector<DataFile>> LiveDataFiles(const TableMetadata& metadata, std::optional<std::int64_t> snapshot_id) {
  const Snapshot* snapshot = snapshot_id ? metadata.SnapshotById(*snapshot_id) : metadata.CurrentSnapshot();
  if (!snapshot) {
    if (snapshot_id) return Status::NotFound("table has no snapshot " + std::to_string(*snapshot_id));
    return std::vector<DataFile>{};
  }
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadSnapshotManifests(metadata, *snapshot));
  std::vector<DataFile> out;
  for (auto& m : manifests) {
    for (auto& e : m.entries) {
      if (e.status != EntryStatus::kDeleted) out.push_back(std::move(e.data_file));
    }
  }
  return out;
}

}  // namespace floe::iceberg
