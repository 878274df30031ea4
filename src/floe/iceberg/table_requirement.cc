#include "floe/iceberg/table_requirement.h"

#include <cctype>
#include <utility>

#include "floe/iceberg/table_metadata_json.h"

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

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

Status Failed(std::string_view type, const std::string& message) {
  return Status::Conflict("requirement failed: " + std::string(type) + ": " + message);
}

Status ExpectInt(std::string_view type, std::string_view what, std::int64_t expected, std::int64_t actual) {
  if (expected == actual) return Status::OK();
  return Failed(type, std::string(what) + " has changed: expected " + std::to_string(expected) + ", found " +
                          std::to_string(actual));
}

Status Check(const TableMetadata& m, const AssertCreate& r) {
  return Failed(TypeOf(r), "table already exists (uuid " + m.table_uuid + ")");
}
Status Check(const TableMetadata& m, const AssertTableUuid& r) {
  if (EqualsIgnoreCase(r.uuid, m.table_uuid)) return Status::OK();
  return Failed(TypeOf(r), "table uuid does not match: expected " + r.uuid + ", found " + m.table_uuid);
}
Status Check(const TableMetadata& m, const AssertRefSnapshotId& r) {
  const SnapshotRef* ref = m.Ref(r.ref);
  std::optional<std::int64_t> actual = ref ? std::optional<std::int64_t>(ref->snapshot_id) : m.RefSnapshotId(r.ref);
  std::string kind = ref ? std::string(SnapshotRefTypeName(ref->type)) : std::string("branch");
  if (actual) {
    if (!r.snapshot_id) {
      return Failed(TypeOf(r), kind + " " + r.ref + " was created concurrently: expected none, found snapshot " +
                                   std::to_string(*actual));
    }
    if (*r.snapshot_id != *actual) {
      return Failed(TypeOf(r), kind + " " + r.ref + " has changed: expected snapshot " + std::to_string(*r.snapshot_id) +
                                   ", found " + std::to_string(*actual));
    }
    return Status::OK();
  }
  if (r.snapshot_id) {
    return Failed(TypeOf(r), "branch or tag " + r.ref + " is missing: expected snapshot " +
                                 std::to_string(*r.snapshot_id) + ", found none");
  }
  return Status::OK();
}
Status Check(const TableMetadata& m, const AssertLastAssignedFieldId& r) {
  return ExpectInt(TypeOf(r), "last assigned field id", r.last_assigned_field_id, m.last_column_id);
}
Status Check(const TableMetadata& m, const AssertCurrentSchemaId& r) {
  return ExpectInt(TypeOf(r), "current schema id", r.current_schema_id, m.current_schema_id);
}
Status Check(const TableMetadata& m, const AssertLastAssignedPartitionId& r) {
  return ExpectInt(TypeOf(r), "last assigned partition id", r.last_assigned_partition_id, m.last_partition_id);
}
Status Check(const TableMetadata& m, const AssertDefaultSpecId& r) {
  return ExpectInt(TypeOf(r), "default spec id", r.default_spec_id, m.default_spec_id);
}
Status Check(const TableMetadata& m, const AssertDefaultSortOrderId& r) {
  return ExpectInt(TypeOf(r), "default sort order id", r.default_sort_order_id, m.default_sort_order_id);
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

Status CheckRequirement(const TableMetadata* current, const TableRequirement& requirement) {
  if (current == nullptr) {
    if (std::holds_alternative<AssertCreate>(requirement)) return Status::OK();
    return Failed(RequirementType(requirement), "table does not exist");
  }
  return std::visit([&](const auto& r) { return Check(*current, r); }, requirement);
}

Status CheckRequirements(const TableMetadata* current, const std::vector<TableRequirement>& requirements) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(current, r));
  return Status::OK();
}

}  // namespace floe::iceberg
