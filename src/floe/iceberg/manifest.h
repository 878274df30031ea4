#pragma once
// Manifests and manifest lists (spec: "Manifests", "Manifest Lists"), written as Avro
// container files whose schemas carry the spec's field ids, so that every engine reads them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {

struct FieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  // single-value binary
  std::optional<std::string> upper_bound;
};

struct ManifestFile {
  std::string manifest_path;  // absolute URI
  std::int64_t manifest_length = 0;
  int partition_spec_id = 0;
  int content = 0;  // 0 data, 1 deletes
  std::int64_t sequence_number = 0;
  std::int64_t min_sequence_number = 0;
  std::int64_t added_snapshot_id = 0;
  std::int32_t added_files_count = 0;
  std::int32_t existing_files_count = 0;
  std::int32_t deleted_files_count = 0;
  std::int64_t added_rows_count = 0;
  std::int64_t existing_rows_count = 0;
  std::int64_t deleted_rows_count = 0;
  std::vector<FieldSummary> partitions;
  std::optional<std::string> key_metadata;
};

enum class EntryStatus { kExisting = 0, kAdded = 1, kDeleted = 2 };

struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  std::optional<std::int64_t> snapshot_id;
  std::optional<std::int64_t> sequence_number;       // null = inherited from the manifest list
  std::optional<std::int64_t> file_sequence_number;  // likewise
  DataFile data_file;
};

struct ManifestContext {
  const schema::Schema* schema = nullptr;  // the table's current schema
  const schema::PartitionSpec* spec = nullptr;
  int format_version = 2;
};

// Writes `entries` to `relative_path` under `io` (the table location) and returns the
// manifest-list entry describing it. `snapshot_id`/`sequence_number` are the new snapshot's.
Result<ManifestFile> WriteManifest(storage::FileIO& io, const std::string& relative_path,
                                   const ManifestContext& context, std::int64_t snapshot_id,
                                   std::int64_t sequence_number, const std::vector<ManifestEntry>& entries);

Status WriteManifestList(storage::FileIO& io, const std::string& relative_path, std::int64_t snapshot_id,
                         std::optional<std::int64_t> parent_snapshot_id, std::int64_t sequence_number,
                         const std::vector<ManifestFile>& manifests);

// Reads a manifest list by absolute URI (written by Floe or any other engine).
Result<std::vector<ManifestFile>> ReadManifestList(const std::string& uri);

}  // namespace floe::iceberg
