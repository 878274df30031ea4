#pragma once
// Table metadata changes: the TableUpdate objects of the Iceberg REST catalog API
// (CommitTableRequest.updates, wire form {"action": "add-snapshot", "snapshot": {…}}) and
// how they apply to metadata, following Java's TableMetadata.Builder (pyiceberg agrees on
// everything the REST protocol exercises).
//
// Semantics worth knowing (all as in Java):
// - add-schema / add-spec / add-sort-order reuse an existing equal entry (ignoring its id),
//   otherwise the entry gets id = highest existing id + 1 (for sort orders: 0 for unsorted,
//   else from 1), whatever id the client sent. set-current-schema / set-default-spec /
//   set-default-sort-order with -1 mean "the one added (or reused) earlier in this list".
// - add-snapshot requires sequence-number > last-sequence-number in v2+ unless the snapshot
//   has no parent, and raises last-sequence-number; v3 also requires first-row-id >=
//   next-row-id and advances next-row-id by added-rows.
// - set-snapshot-ref on "main" sets current-snapshot-id and appends to snapshot-log (at the
//   snapshot's timestamp when it was added in the same commit, else at now_ms).
// - remove-snapshots ignores ids that are not there, drops the refs and statistics of the
//   removed snapshots, and trims the snapshot-log before the last removed entry.
// - remove-properties ignores absent keys; remove-statistics of a missing entry is a no-op.
// - No-op updates (setting what is already set) are not changes; when nothing changed,
//   ApplyUpdates returns the base unchanged (no metadata-log entry, same last-updated-ms).
// - Format versions 1 to 3 can be created or upgraded to (v3 starts next-row-id at 0); above
//   3 is kUnsupported. add-schema's last-column-id (deprecated in the REST spec) may be lower
//   than the table's: the table keeps the higher value.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

inline constexpr int kLastAdded = -1;  // schema-id / spec-id / sort-order-id: "the last added one"

struct AssignUuidUpdate { std::string uuid; };
struct UpgradeFormatVersionUpdate { int format_version = kWriteFormatVersion; };
struct AddSchemaUpdate {
  schema::Schema schema;
  std::optional<int> last_column_id;  // deprecated in the REST spec; computed when absent
};
struct SetCurrentSchemaUpdate { int schema_id = kLastAdded; };
struct AddPartitionSpecUpdate { schema::PartitionSpec spec; };        // "add-spec"
struct SetDefaultSpecUpdate { int spec_id = kLastAdded; };
struct AddSortOrderUpdate { schema::SortOrder sort_order; };
struct SetDefaultSortOrderUpdate { int sort_order_id = kLastAdded; };
struct AddSnapshotUpdate { Snapshot snapshot; };
struct SetSnapshotRefUpdate {
  std::string ref_name;
  SnapshotRef ref;
};
struct RemoveSnapshotsUpdate { std::vector<std::int64_t> snapshot_ids; };
struct RemoveSnapshotRefUpdate { std::string ref_name; };
struct SetLocationUpdate { std::string location; };
struct SetPropertiesUpdate { std::map<std::string, std::string, std::less<>> updates; };
struct RemovePropertiesUpdate { std::vector<std::string> removals; };
struct SetStatisticsUpdate { StatisticsFile statistics; };
struct RemoveStatisticsUpdate { std::int64_t snapshot_id = 0; };
struct SetPartitionStatisticsUpdate { StatisticsFile partition_statistics; };
struct RemovePartitionStatisticsUpdate { std::int64_t snapshot_id = 0; };
struct RemoveSchemasUpdate { std::vector<int> schema_ids; };
struct RemovePartitionSpecsUpdate { std::vector<int> spec_ids; };

using TableUpdate =
    std::variant<AssignUuidUpdate, UpgradeFormatVersionUpdate, AddSchemaUpdate, SetCurrentSchemaUpdate,
                 AddPartitionSpecUpdate, SetDefaultSpecUpdate, AddSortOrderUpdate, SetDefaultSortOrderUpdate,
                 AddSnapshotUpdate, SetSnapshotRefUpdate, RemoveSnapshotsUpdate, RemoveSnapshotRefUpdate,
                 SetLocationUpdate, SetPropertiesUpdate, RemovePropertiesUpdate, SetStatisticsUpdate,
                 RemoveStatisticsUpdate, SetPartitionStatisticsUpdate, RemovePartitionStatisticsUpdate,
                 RemoveSchemasUpdate, RemovePartitionSpecsUpdate>;

// The REST "action" string: "add-snapshot", "set-snapshot-ref", ...
std::string_view UpdateAction(const TableUpdate& update);

// REST wire form. Unknown actions and malformed members are kInvalidArgument naming them.
Result<TableUpdate> TableUpdateFromJson(const nlohmann::json& j);
nlohmann::json TableUpdateToJson(const TableUpdate& update);
Result<std::vector<TableUpdate>> TableUpdatesFromJson(const nlohmann::json& array);
nlohmann::json TableUpdatesToJson(const std::vector<TableUpdate>& updates);

// Applies updates in order to `base`. now_ms stamps last-updated-ms (unless a snapshot added
// here sets it) and snapshot-log entries; when anything changed and
// previous_metadata_location is not empty, {base.last-updated-ms, previous location} is
// appended to metadata-log, trimmed to write.metadata.previous-versions-max (default 100).
// An invalid update fails the whole list with kInvalidArgument (kUnsupported for a format
// version Floe cannot write) naming its index and action.
Result<TableMetadata> ApplyUpdates(const TableMetadata& base, const std::vector<TableUpdate>& updates,
                                   std::int64_t now_ms, std::string_view previous_metadata_location = {});

// Metadata for the REST "create table" commit (requirements [assert-create] plus updates
// such as assign-uuid, upgrade-format-version, add-schema, set-current-schema -1, add-spec,
// set-default-spec -1, add-sort-order, set-default-sort-order -1, set-location,
// set-properties, maybe add-snapshot/set-snapshot-ref): the updates applied to empty
// metadata. Afterwards a location and a current schema must exist; without a spec or sort
// order the table is unpartitioned / unsorted; without assign-uuid a random uuid is used;
// without upgrade-format-version the table is v2.
Result<TableMetadata> CreateFromUpdates(const std::vector<TableUpdate>& updates, std::int64_t now_ms);

}  // namespace floe::iceberg
