// The REST wire form of table requirements: {"type": "assert-ref-snapshot-id", …}.
// Checking them against metadata is table_requirement.cc.
#include <string>
#include <utility>

#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/table_requirement.h"

namespace floe::iceberg {

using nlohmann::json;
namespace ja = json_access;

namespace {

constexpr std::string_view TypeOf(const AssertCreate&) { return "assert-create"; }
constexpr std::string_view TypeOf(const AssertTableUuid&) { return "assert-table-uuid"; }
constexpr std::string_view TypeOf(const AssertRefSnapshotId&) { return "assert-ref-snapshot-id"; }
constexpr std::string_view TypeOf(const AssertLastAssignedFieldId&) { return "assert-last-assigned-field-id"; }
constexpr std::string_view TypeOf(const AssertCurrentSchemaId&) { return "assert-current-schema-id"; }
constexpr std::string_view TypeOf(const AssertLastAssignedPartitionId&) { return "assert-last-assigned-partition-id"; }
constexpr std::string_view TypeOf(const AssertDefaultSpecId&) { return "assert-default-spec-id"; }
constexpr std::string_view TypeOf(const AssertDefaultSortOrderId&) { return "assert-default-sort-order-id"; }
json Members(const AssertCreate&) { return json::object(); }
json Members(const AssertTableUuid& r) { return {{"uuid", r.uuid}}; }
json Members(const AssertRefSnapshotId& r) {
  json j = {{"ref", r.ref}};
  j["snapshot-id"] = r.snapshot_id ? json(*r.snapshot_id) : json(nullptr);  // null is meaningful: always written
  return j;
}
json Members(const AssertLastAssignedFieldId& r) { return {{"last-assigned-field-id", r.last_assigned_field_id}}; }
json Members(const AssertCurrentSchemaId& r) { return {{"current-schema-id", r.current_schema_id}}; }
json Members(const AssertLastAssignedPartitionId& r) {
  return {{"last-assigned-partition-id", r.last_assigned_partition_id}};
}
json Members(const AssertDefaultSpecId& r) { return {{"default-spec-id", r.default_spec_id}}; }
json Members(const AssertDefaultSortOrderId& r) { return {{"default-sort-order-id", r.default_sort_order_id}}; }

Result<TableRequirement> ParseRequirement(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "table requirement"}));
  FLOE_ASSIGN_OR_RETURN(std::string type, ja::RequireString(j, "type", kJsonWording));
  auto in = [&](Status st) -> Result<TableRequirement> { return st.WithContext(type); };
  if (type == "assert-create") return TableRequirement(AssertCreate{});
  if (type == "assert-table-uuid") {
    auto uuid = ja::RequireString(j, "uuid", kJsonWording);
    if (!uuid.ok()) return in(uuid.status());
    return TableRequirement(AssertTableUuid{std::move(uuid).value()});
  }
  if (type == "assert-ref-snapshot-id") {
    auto ref = ja::RequireString(j, "ref", kJsonWording);
    if (!ref.ok()) return in(ref.status());
    // Missing "snapshot-id" reads as null, as Java and pyiceberg do.
    auto id = ja::OptionalInt64(j, "snapshot-id", kJsonWording);
    if (!id.ok()) return in(id.status());
    return TableRequirement(AssertRefSnapshotId{std::move(ref).value(), *id});
  }
  auto int_member = [&](std::string_view key) { return ja::RequireInt(j, key, kJsonWording); };
  if (type == "assert-last-assigned-field-id") {
    auto v = int_member("last-assigned-field-id");
    if (!v.ok()) return in(v.status());
    return TableRequirement(AssertLastAssignedFieldId{*v});
  }
  if (type == "assert-current-schema-id") {
    auto v = int_member("current-schema-id");
    if (!v.ok()) return in(v.status());
    return TableRequirement(AssertCurrentSchemaId{*v});
  }
  if (type == "assert-last-assigned-partition-id") {
    auto v = int_member("last-assigned-partition-id");
    if (!v.ok()) return in(v.status());
    return TableRequirement(AssertLastAssignedPartitionId{*v});
  }
  if (type == "assert-default-spec-id") {
    auto v = int_member("default-spec-id");
    if (!v.ok()) return in(v.status());
    return TableRequirement(AssertDefaultSpecId{*v});
  }
  if (type == "assert-default-sort-order-id") {
    auto v = int_member("default-sort-order-id");
    if (!v.ok()) return in(v.status());
    return TableRequirement(AssertDefaultSortOrderId{*v});
  }
  return Status::InvalidArgument("unknown table requirement type '" + type + "'");
}

}  // namespace

std::string_view RequirementType(const TableRequirement& requirement) {
  return std::visit([](const auto& r) { return TypeOf(r); }, requirement);
}

Result<TableRequirement> TableRequirementFromJson(const json& j) {
  auto r = ParseRequirement(j);
  if (!r.ok()) return r.status().WithContext("table requirement");
  return r;
}

json TableRequirementToJson(const TableRequirement& requirement) {
  return std::visit(
      [](const auto& r) {
        json j = Members(r);
        j["type"] = std::string(TypeOf(r));
        return j;
      },
      requirement);
}

Result<std::vector<TableRequirement>> TableRequirementsFromJson(const json& array) {
  FLOE_RETURN_IF_ERROR(ja::ExpectArray(array, {kJsonWording, "table requirements"}));
  std::vector<TableRequirement> out;
  out.reserve(array.size());
  for (size_t i = 0; i < array.size(); ++i) {
    auto r = ParseRequirement(array[i]);
    if (!r.ok()) return r.status().WithContext("requirements[" + std::to_string(i) + "]");
    out.push_back(std::move(r).value());
  }
  return out;
}

json TableRequirementsToJson(const std::vector<TableRequirement>& requirements) {
  json out = json::array();
  for (const auto& r : requirements) out.push_back(TableRequirementToJson(r));
  return out;
}

}  // namespace floe::iceberg
