#pragma once
// The Iceberg table metadata model: what one `<NNNNN>-<uuid>.metadata.json` file holds.
// Spec: https://iceberg.apache.org/spec/#table-metadata and #table-metadata-fields.
//
// Floe creates format v2 unless told otherwise ("format-version" 1, 2 or 3 at create, or
// upgrade-format-version). v1's singular "schema"/"partition-spec" are converted into the list
// forms on read (and written back beside them for v1 tables); v3's row-lineage fields
// (next-row-id, first-row-id, added-rows) are kept so a v3 table round-trips, and a new v3
// table starts with next-row-id 0. Unknown keys are ignored on read.
//
// A TableMetadata value that came out of ParseTableMetadata, NewTableMetadata or
// ApplyUpdates satisfies ValidateTableMetadata: the current schema, default spec, default
// sort order, current snapshot and every ref point at entries that exist.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"

namespace floe::iceberg {

inline constexpr int kWriteFormatVersion = 2;    // what Floe creates by default
inline constexpr int kMaxWriteFormatVersion = 3;  // what a create or upgrade may ask for
inline constexpr int kMaxReadFormatVersion = 3;  // what Floe parses
inline constexpr int kPartitionFieldIdStart = 1000;
inline constexpr int kUnsortedOrderId = 0;
inline constexpr int kInitialSortOrderId = 1;
inline constexpr std::string_view kMainBranch = "main";

// Snapshot summary keys.
inline constexpr std::string_view kSummaryOperation = "operation";
inline constexpr std::string_view kSummaryFloeOffsets = "floe.offsets";      // JSON text: next offset per topic/partition
inline constexpr std::string_view kSummaryFloeCommitId = "floe.commit-id";

// Table properties this module interprets.
inline constexpr std::string_view kPropMetadataPreviousVersionsMax = "write.metadata.previous-versions-max";
inline constexpr int kDefaultMetadataPreviousVersionsMax = 100;
// Whether a commit deletes the metadata files that fell off the metadata-log. Java's default
// is false; Floe's catalog treats a table without the property as true (docs/maintenance.md):
// otherwise a table committed every second leaves 86,400 metadata files a day for orphan
// removal to list and delete. "false" keeps them.
inline constexpr std::string_view kPropMetadataDeleteAfterCommit = "write.metadata.delete-after-commit.enabled";
inline constexpr std::string_view kPropFormatVersion = "format-version";  // reserved: only at create

struct Snapshot {
  std::int64_t snapshot_id = 0;
  std::optional<std::int64_t> parent_snapshot_id;
  std::int64_t sequence_number = 0;  // v1 snapshots have none: 0
  std::int64_t timestamp_ms = 0;
  std::string manifest_list;               // empty only for v1 snapshots that list `manifests`
  std::vector<std::string> v1_manifests;   // v1 "manifests" (legacy alternative to a manifest list)
  std::map<std::string, std::string, std::less<>> summary;  // includes "operation" (required in v2)
  std::optional<int> schema_id;
  std::optional<std::int64_t> first_row_id;  // v3
  std::optional<std::int64_t> added_rows;    // v3
  std::optional<int> key_id;                 // v3 (encryption key of the manifest list)

  // summary["operation"]: "append", "replace", "overwrite", "delete"; "" when absent.
  std::string_view operation() const;
  // A summary value, or nullopt.
  std::optional<std::string_view> SummaryValue(std::string_view key) const;
  bool operator==(const Snapshot&) const = default;
};

enum class SnapshotRefType { kBranch, kTag };
std::string_view SnapshotRefTypeName(SnapshotRefType type);  // "branch" / "tag"

struct SnapshotRef {
  std::int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int> min_snapshots_to_keep;            // branches only
  std::optional<std::int64_t> max_snapshot_age_ms;     // branches only
  std::optional<std::int64_t> max_ref_age_ms;
  bool operator==(const SnapshotRef&) const = default;
};

struct SnapshotLogEntry {
  std::int64_t timestamp_ms = 0;
  std::int64_t snapshot_id = 0;
  bool operator==(const SnapshotLogEntry&) const = default;
};

struct MetadataLogEntry {
  std::int64_t timestamp_ms = 0;
  std::string metadata_file;
  bool operator==(const MetadataLogEntry&) const = default;
};

// A table or partition statistics file entry. Floe does not interpret statistics; the
// entry is kept as the compact JSON text it was read as (it round-trips unchanged), plus
// the snapshot id it belongs to (set-/remove-statistics address entries by it).
struct StatisticsFile {
  std::int64_t snapshot_id = 0;
  std::string json;  // the whole object, e.g. {"snapshot-id":…,"statistics-path":…,…}
  // Compares the JSON values, not the texts (key order and spacing do not matter).
  bool operator==(const StatisticsFile& other) const;
};

struct TableMetadata {
  int format_version = kWriteFormatVersion;
  std::string table_uuid;  // may be empty only for v1 tables
  std::string location;
  std::int64_t last_sequence_number = 0;
  std::int64_t last_updated_ms = 0;
  int last_column_id = 0;
  std::vector<schema::Schema> schemas;
  int current_schema_id = 0;
  std::vector<schema::PartitionSpec> partition_specs;
  int default_spec_id = 0;
  int last_partition_id = kPartitionFieldIdStart - 1;
  std::map<std::string, std::string, std::less<>> properties;
  std::optional<std::int64_t> current_snapshot_id;  // nullopt: no current snapshot (-1 on the wire)
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::vector<schema::SortOrder> sort_orders;
  int default_sort_order_id = kUnsortedOrderId;
  std::map<std::string, SnapshotRef, std::less<>> refs;  // always holds "main" when there is a current snapshot
  std::vector<StatisticsFile> statistics;
  std::vector<StatisticsFile> partition_statistics;
  std::optional<std::int64_t> next_row_id;  // v3

  // Lookups; nullptr when absent (never for the current/default ones of valid metadata).
  const schema::Schema* CurrentSchema() const;
  const schema::Schema* SchemaById(int schema_id) const;
  const schema::PartitionSpec* DefaultSpec() const;
  const schema::PartitionSpec* SpecById(int spec_id) const;
  const schema::SortOrder* DefaultSortOrder() const;
  const schema::SortOrder* SortOrderById(int order_id) const;
  const Snapshot* SnapshotById(std::int64_t snapshot_id) const;
  const Snapshot* CurrentSnapshot() const;
  const SnapshotRef* Ref(std::string_view name) const;
  // The snapshot a branch or tag points at; nullopt when the ref does not exist.
  std::optional<std::int64_t> RefSnapshotId(std::string_view name) const;
  // Sequence number for the next snapshot: last + 1 (v2+), 0 for v1.
  std::int64_t NextSequenceNumber() const;
  // A property, or nullopt.
  std::optional<std::string_view> Property(std::string_view key) const;
};

// Deep structural equality (schemas, specs and orders field by field).
bool operator==(const TableMetadata& a, const TableMetadata& b);

// Structural equality helpers for the schema module's types (which have none).
// Same* ignore the id (schema-id / spec-id / order-id), *Equal compare it too.
bool SameSchema(const schema::Schema& a, const schema::Schema& b);  // fields deep + identifier ids
bool SchemaEqual(const schema::Schema& a, const schema::Schema& b);
bool SameSpec(const schema::PartitionSpec& a, const schema::PartitionSpec& b);  // source, transform, name (Java's compatibleWith)
bool SpecEqual(const schema::PartitionSpec& a, const schema::PartitionSpec& b);  // also field ids
bool SameSortOrder(const schema::SortOrder& a, const schema::SortOrder& b);
bool SortOrderEqual(const schema::SortOrder& a, const schema::SortOrder& b);

// Parses a metadata.json text (format v1, v2 or v3). Errors are kInvalidArgument naming the
// missing or invalid key with its path ("snapshots[2]: missing required key 'timestamp-ms'");
// kUnsupported for format versions above 3.
Result<TableMetadata> ParseTableMetadata(std::string_view json);
// Spec-conformant compact JSON in the table's own format version.
std::string SerializeTableMetadata(const TableMetadata& metadata);

// Checks the cross-references of metadata (kInvalidArgument naming the broken one): unique
// schema/spec/order/snapshot ids, current-schema-id, default-spec-id, default-sort-order-id
// and current-snapshot-id exist, refs point at existing snapshots, main == current snapshot.
Status ValidateTableMetadata(const TableMetadata& metadata);

// Checks that a partition spec / sort order can be applied to a schema: every source column
// exists (a void partition transform may reference a dropped one), is primitive, and the
// transform accepts its type; partition field names and ids are unique.
Status CheckSpecCompatible(const schema::PartitionSpec& spec, const schema::Schema& schema);
Status CheckSortOrderCompatible(const schema::SortOrder& order, const schema::Schema& schema);
// Rejects types and defaults a format version does not allow (v3 types, initial defaults < v3).
Status CheckSchemaFormatVersion(const schema::Schema& schema, int format_version);

// Metadata for a new table, as Java's TableMetadata.newTableMetadata: format v2 (or the
// "format-version" property, 1, 2 or 3, which is consumed and not stored; v3 starts
// next-row-id at 0), schema id 0 (the
// schema's field ids are kept; last-column-id = its highest field id), spec id 0 with
// partition field ids reassigned from 1000, sort order id 1 (0 when unsorted), a random
// table uuid, location without trailing '/', no snapshots. now_ms defaults to the clock.
Result<TableMetadata> NewTableMetadata(const schema::Schema& schema, const schema::PartitionSpec& spec,
                                       const schema::SortOrder& sort_order, std::string_view location,
                                       std::map<std::string, std::string, std::less<>> properties = {},
                                       std::optional<std::int64_t> now_ms = std::nullopt);

// True for the canonical 8-4-4-4-12 hex form (either case).
bool IsValidUuid(std::string_view text);
// Milliseconds since the epoch from the system clock.
std::int64_t NowMillis();

}  // namespace floe::iceberg
