#pragma once
// Manifests and manifest lists (spec: "Manifests", "Manifest Lists"), written as Avro
// container files whose schemas carry the spec's field ids, so that every engine reads them.
#include <arrow/io/type_fwd.h>

#include <cstdint>
#include <memory>
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

// data_file.content: what a manifest entry's file holds. Floe writes data files only.
enum class FileContent { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };

struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  std::optional<std::int64_t> snapshot_id;
  std::optional<std::int64_t> sequence_number;       // null = inherited from the manifest list
  std::optional<std::int64_t> file_sequence_number;  // likewise
  FileContent content = FileContent::kData;          // WriteManifest accepts kData only
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
// The same from a file already open (in memory for tests/fuzz/iceberg_manifest_fuzzer.cc).
Result<std::vector<ManifestFile>> ReadManifestList(std::shared_ptr<arrow::io::RandomAccessFile> file);

// Reads the entries of the manifest that `manifest` (a manifest-list entry) describes, by
// its absolute URI: written by Floe, Java or pyiceberg, format v1 or v2, any codec the Avro
// module reads (null, deflate, snappy, zstandard). The file is decoded with its own writer
// schema and fields are picked by name (v1 files have no sequence numbers or content).
// `spec` must be the manifest's spec (its id is checked against partition_spec_id) and
// `schema` a schema its partition type is derived from (normally the table's current one):
// partition values are matched by partition field id (then by name) and converted to
// Literals of that type, also across the allowed promotions (int→long, float→double).
//
// Inheritance (spec "Sequence Number Inheritance"): a null snapshot_id becomes the
// manifest's added_snapshot_id; a null data/file sequence number becomes the manifest's
// sequence_number for ADDED entries, and for every entry when that is 0 (v1 manifests).
// Each data_file.spec_id is set to spec.spec_id. Not kept: key_metadata, equality_ids and
// v3 row-lineage fields.
Result<std::vector<ManifestEntry>> ReadManifest(const ManifestFile& manifest, const schema::Schema& schema,
                                                const schema::PartitionSpec& spec);
// The same from a file already open; manifest.manifest_path only names it in errors.
Result<std::vector<ManifestEntry>> ReadManifest(const ManifestFile& manifest,
                                                std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                const schema::Schema& schema, const schema::PartitionSpec& spec);

}  // namespace floe::iceberg
