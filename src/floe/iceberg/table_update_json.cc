// The REST wire form of table updates: {"action": "add-snapshot", "snapshot": {…}}.
// How updates apply to metadata is table_update.cc.
#include <string>
#include <utility>

#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/table_update.h"
#include "floe/schema/json.h"

namespace floe::iceberg {

using nlohmann::json;
namespace ja = json_access;

// --- Action names -----------------------------------------------------------------------

namespace {

constexpr std::string_view ActionOf(const AssignUuidUpdate&) { return "assign-uuid"; }
constexpr std::string_view ActionOf(const UpgradeFormatVersionUpdate&) { return "upgrade-format-version"; }
constexpr std::string_view ActionOf(const AddSchemaUpdate&) { return "add-schema"; }
constexpr std::string_view ActionOf(const SetCurrentSchemaUpdate&) { return "set-current-schema"; }
constexpr std::string_view ActionOf(const AddPartitionSpecUpdate&) { return "add-spec"; }
constexpr std::string_view ActionOf(const SetDefaultSpecUpdate&) { return "set-default-spec"; }
constexpr std::string_view ActionOf(const AddSortOrderUpdate&) { return "add-sort-order"; }
constexpr std::string_view ActionOf(const SetDefaultSortOrderUpdate&) { return "set-default-sort-order"; }
constexpr std::string_view ActionOf(const AddSnapshotUpdate&) { return "add-snapshot"; }
constexpr std::string_view ActionOf(const SetSnapshotRefUpdate&) { return "set-snapshot-ref"; }
constexpr std::string_view ActionOf(const RemoveSnapshotsUpdate&) { return "remove-snapshots"; }
constexpr std::string_view ActionOf(const RemoveSnapshotRefUpdate&) { return "remove-snapshot-ref"; }
constexpr std::string_view ActionOf(const SetLocationUpdate&) { return "set-location"; }
constexpr std::string_view ActionOf(const SetPropertiesUpdate&) { return "set-properties"; }
constexpr std::string_view ActionOf(const RemovePropertiesUpdate&) { return "remove-properties"; }
constexpr std::string_view ActionOf(const SetStatisticsUpdate&) { return "set-statistics"; }
constexpr std::string_view ActionOf(const RemoveStatisticsUpdate&) { return "remove-statistics"; }
constexpr std::string_view ActionOf(const SetPartitionStatisticsUpdate&) { return "set-partition-statistics"; }
constexpr std::string_view ActionOf(const RemovePartitionStatisticsUpdate&) { return "remove-partition-statistics"; }
constexpr std::string_view ActionOf(const RemoveSchemasUpdate&) { return "remove-schemas"; }
constexpr std::string_view ActionOf(const RemovePartitionSpecsUpdate&) { return "remove-partition-specs"; }

}  // namespace

std::string_view UpdateAction(const TableUpdate& update) {
  return std::visit([](const auto& u) { return ActionOf(u); }, update);
}

// --- JSON -------------------------------------------------------------------------------

namespace {

// REST clients may leave the ids out of objects whose ids the server assigns.
json WithDefault(const json& j, const char* key, const json& value) {
  json copy = j;
  if (copy.is_object() && !copy.contains(key)) copy[key] = value;
  return copy;
}

Result<TableUpdate> ParseUpdate(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "table update"}));
  FLOE_ASSIGN_OR_RETURN(std::string action, ja::RequireString(j, "action", kJsonWording));
  auto fail = [&](Status st) -> Result<TableUpdate> { return st.WithContext(action); };

  if (action == "assign-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, ja::RequireString(j, "uuid", kJsonWording));
    return TableUpdate(AssignUuidUpdate{std::move(uuid)});
  }
  if (action == "upgrade-format-version") {
    FLOE_ASSIGN_OR_RETURN(int v, ja::RequireInt(j, "format-version", kJsonWording));
    return TableUpdate(UpgradeFormatVersionUpdate{v});
  }
  if (action == "add-schema") {
    Result<const json*> s = ja::Require(j, "schema", kJsonWording);
    if (!s.ok()) return fail(s.status());
    auto schema = schema::SchemaFromJson(WithDefault(**s, "schema-id", 0));
    if (!schema.ok()) return fail(schema.status().WithContext("schema"));
    FLOE_ASSIGN_OR_RETURN(auto last_column_id, ja::OptionalInt(j, "last-column-id", kJsonWording));
    return TableUpdate(AddSchemaUpdate{std::move(schema).value(), last_column_id});
  }
  if (action == "set-current-schema") {
    FLOE_ASSIGN_OR_RETURN(int id, ja::RequireInt(j, "schema-id", kJsonWording));
    return TableUpdate(SetCurrentSchemaUpdate{id});
  }
  if (action == "add-spec") {
    Result<const json*> s = ja::Require(j, "spec", kJsonWording);
    if (!s.ok()) return fail(s.status());
    json spec_json = WithDefault(**s, "spec-id", 0);
    if (spec_json.is_object() && spec_json.contains("fields") && spec_json["fields"].is_array()) {
      int next = kPartitionFieldIdStart;
      for (auto& f : spec_json["fields"]) {
        if (f.is_object() && !f.contains("field-id")) f["field-id"] = next;
        ++next;
      }
    }
    auto spec = schema::PartitionSpecFromJson(spec_json);
    if (!spec.ok()) return fail(spec.status().WithContext("spec"));
    return TableUpdate(AddPartitionSpecUpdate{std::move(spec).value()});
  }
  if (action == "set-default-spec") {
    FLOE_ASSIGN_OR_RETURN(int id, ja::RequireInt(j, "spec-id", kJsonWording));
    return TableUpdate(SetDefaultSpecUpdate{id});
  }
  if (action == "add-sort-order") {
    Result<const json*> s = ja::Require(j, "sort-order", kJsonWording);
    if (!s.ok()) return fail(s.status());
    auto order = schema::SortOrderFromJson(WithDefault(**s, "order-id", 0));
    if (!order.ok()) return fail(order.status().WithContext("sort-order"));
    return TableUpdate(AddSortOrderUpdate{std::move(order).value()});
  }
  if (action == "set-default-sort-order") {
    FLOE_ASSIGN_OR_RETURN(int id, ja::RequireInt(j, "sort-order-id", kJsonWording));
    return TableUpdate(SetDefaultSortOrderUpdate{id});
  }
  if (action == "add-snapshot") {
    Result<const json*> s = ja::Require(j, "snapshot", kJsonWording);
    if (!s.ok()) return fail(s.status());
    auto snapshot = SnapshotFromJson(**s);
    if (!snapshot.ok()) return fail(snapshot.status().WithContext("snapshot"));
    return TableUpdate(AddSnapshotUpdate{std::move(snapshot).value()});
  }
  if (action == "set-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, ja::RequireString(j, "ref-name", kJsonWording));
    auto ref = SnapshotRefFromJson(j);
    if (!ref.ok()) return fail(ref.status());
    return TableUpdate(SetSnapshotRefUpdate{std::move(name), std::move(ref).value()});
  }
  if (action == "remove-snapshots") {
    FLOE_ASSIGN_OR_RETURN(auto ids, ja::RequireInt64List(j, "snapshot-ids", kJsonWording));
    return TableUpdate(RemoveSnapshotsUpdate{std::move(ids)});
  }
  if (action == "remove-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, ja::RequireString(j, "ref-name", kJsonWording));
    return TableUpdate(RemoveSnapshotRefUpdate{std::move(name)});
  }
  if (action == "set-location") {
    FLOE_ASSIGN_OR_RETURN(std::string location, ja::RequireString(j, "location", kJsonWording));
    return TableUpdate(SetLocationUpdate{std::move(location)});
  }
  if (action == "set-properties") {
    if (auto present = ja::Require(j, "updates", kJsonWording); !present.ok()) return fail(present.status());
    FLOE_ASSIGN_OR_RETURN(auto updates, ja::OptionalStringMap(j, "updates", kJsonWording));
    return TableUpdate(SetPropertiesUpdate{std::move(updates)});
  }
  if (action == "remove-properties") {
    FLOE_ASSIGN_OR_RETURN(auto removals, ja::RequireStringList(j, "removals", kJsonWording));
    return TableUpdate(RemovePropertiesUpdate{std::move(removals)});
  }
  if (action == "set-statistics") {
    Result<const json*> s = ja::Require(j, "statistics", kJsonWording);
    if (!s.ok()) return fail(s.status());
    auto file = StatisticsFileFromJson(**s);
    if (!file.ok()) return fail(file.status().WithContext("statistics"));
    // The top-level "snapshot-id" is deprecated and redundant; when present it must agree.
    FLOE_ASSIGN_OR_RETURN(auto snapshot_id, ja::OptionalInt64(j, "snapshot-id", kJsonWording));
    if (snapshot_id && *snapshot_id != file->snapshot_id) {
      return fail(Status::InvalidArgument("'snapshot-id' " + std::to_string(*snapshot_id) +
                                          " differs from statistics.snapshot-id " + std::to_string(file->snapshot_id)));
    }
    return TableUpdate(SetStatisticsUpdate{std::move(file).value()});
  }
  if (action == "remove-statistics") {
    FLOE_ASSIGN_OR_RETURN(std::int64_t id, ja::RequireInt64(j, "snapshot-id", kJsonWording));
    return TableUpdate(RemoveStatisticsUpdate{id});
  }
  if (action == "set-partition-statistics") {
    Result<const json*> s = ja::Require(j, "partition-statistics", kJsonWording);
    if (!s.ok()) return fail(s.status());
    auto file = StatisticsFileFromJson(**s);
    if (!file.ok()) return fail(file.status().WithContext("partition-statistics"));
    return TableUpdate(SetPartitionStatisticsUpdate{std::move(file).value()});
  }
  if (action == "remove-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(std::int64_t id, ja::RequireInt64(j, "snapshot-id", kJsonWording));
    return TableUpdate(RemovePartitionStatisticsUpdate{id});
  }
  if (action == "remove-schemas") {
    FLOE_ASSIGN_OR_RETURN(auto ids, ja::RequireIntList(j, "schema-ids", kJsonWording));
    return TableUpdate(RemoveSchemasUpdate{std::move(ids)});
  }
  if (action == "remove-partition-specs") {
    FLOE_ASSIGN_OR_RETURN(auto ids, ja::RequireIntList(j, "spec-ids", kJsonWording));
    return TableUpdate(RemovePartitionSpecsUpdate{std::move(ids)});
  }
  return Status::InvalidArgument("unknown table update action '" + action + "'");
}

json Members(const AssignUuidUpdate& u) { return {{"uuid", u.uuid}}; }
json Members(const UpgradeFormatVersionUpdate& u) { return {{"format-version", u.format_version}}; }
json Members(const AddSchemaUpdate& u) {
  json j = {{"schema", schema::SchemaToJson(u.schema)}};
  if (u.last_column_id) j["last-column-id"] = *u.last_column_id;
  return j;
}
json Members(const SetCurrentSchemaUpdate& u) { return {{"schema-id", u.schema_id}}; }
json Members(const AddPartitionSpecUpdate& u) { return {{"spec", schema::PartitionSpecToJson(u.spec)}}; }
json Members(const SetDefaultSpecUpdate& u) { return {{"spec-id", u.spec_id}}; }
json Members(const AddSortOrderUpdate& u) { return {{"sort-order", schema::SortOrderToJson(u.sort_order)}}; }
json Members(const SetDefaultSortOrderUpdate& u) { return {{"sort-order-id", u.sort_order_id}}; }
json Members(const AddSnapshotUpdate& u) {
  // The REST form always carries the v2 fields (sequence-number); v1 servers ignore them.
  return {{"snapshot", SnapshotToJson(u.snapshot, kWriteFormatVersion)}};
}
json Members(const SetSnapshotRefUpdate& u) {
  json j = {{"ref-name", u.ref_name}};
  SnapshotRefToJson(u.ref, j);
  return j;
}
json Members(const RemoveSnapshotsUpdate& u) { return {{"snapshot-ids", u.snapshot_ids}}; }
json Members(const RemoveSnapshotRefUpdate& u) { return {{"ref-name", u.ref_name}}; }
json Members(const SetLocationUpdate& u) { return {{"location", u.location}}; }
json Members(const SetPropertiesUpdate& u) {
  json updates = json::object();
  for (const auto& [k, v] : u.updates) updates[k] = v;
  return {{"updates", std::move(updates)}};
}
json Members(const RemovePropertiesUpdate& u) { return {{"removals", u.removals}}; }
json Members(const SetStatisticsUpdate& u) {
  return {{"snapshot-id", u.statistics.snapshot_id}, {"statistics", StatisticsFileToJson(u.statistics)}};
}
json Members(const RemoveStatisticsUpdate& u) { return {{"snapshot-id", u.snapshot_id}}; }
json Members(const SetPartitionStatisticsUpdate& u) {
  return {{"partition-statistics", StatisticsFileToJson(u.partition_statistics)}};
}
json Members(const RemovePartitionStatisticsUpdate& u) { return {{"snapshot-id", u.snapshot_id}}; }
json Members(const RemoveSchemasUpdate& u) { return {{"schema-ids", u.schema_ids}}; }
json Members(const RemovePartitionSpecsUpdate& u) { return {{"spec-ids", u.spec_ids}}; }

}  // namespace

Result<TableUpdate> TableUpdateFromJson(const json& j) {
  auto u = ParseUpdate(j);
  if (!u.ok()) return u.status().WithContext("table update");
  return u;
}

json TableUpdateToJson(const TableUpdate& update) {
  return std::visit(
      [](const auto& u) {
        json j = Members(u);
        j["action"] = std::string(ActionOf(u));
        return j;
      },
      update);
}

Result<std::vector<TableUpdate>> TableUpdatesFromJson(const json& array) {
  FLOE_RETURN_IF_ERROR(ja::ExpectArray(array, {kJsonWording, "table updates"}));
  std::vector<TableUpdate> out;
  out.reserve(array.size());
  for (size_t i = 0; i < array.size(); ++i) {
    auto u = ParseUpdate(array[i]);
    if (!u.ok()) return u.status().WithContext("updates[" + std::to_string(i) + "]");
    out.push_back(std::move(u).value());
  }
  return out;
}

json TableUpdatesToJson(const std::vector<TableUpdate>& updates) {
  json out = json::array();
  for (const auto& u : updates) out.push_back(TableUpdateToJson(u));
  return out;
}

}  // namespace floe::iceberg
