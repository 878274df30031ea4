// Checking table requirements against metadata. The wire form is table_requirement_json.cc.
#include "floe/iceberg/table_requirement.h"

#include <cctype>
#include <utility>

namespace floe::iceberg {

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Worded as Iceberg's own UpdateRequirement ("Requirement failed: current schema changed: expected
// id 0 != 1"), which Java clients and Iceberg's compatibility kit match; the REST type follows.
Status Failed(std::string_view type, const std::string& message) {
  return Status::Conflict("Requirement failed: " + message + " (" + std::string(type) + ")");
}

// Each Mismatch says what differs (the part of the message after the requirement type), or
// nullopt when the requirement holds.
using Mismatch = std::optional<std::string>;

Mismatch ExpectInt(std::string_view what, std::int64_t expected, std::int64_t actual) {
  if (expected == actual) return std::nullopt;
  return std::string(what) + " changed: expected id " + std::to_string(expected) + " != " + std::to_string(actual);
}

Mismatch Check(const TableMetadata& m, const AssertCreate&) {
  return "table already exists (uuid " + m.table_uuid + ")";
}
Mismatch Check(const TableMetadata& m, const AssertTableUuid& r) {
  if (EqualsIgnoreCase(r.uuid, m.table_uuid)) return std::nullopt;
  return "UUID does not match: expected " + r.uuid + " != " + m.table_uuid;
}
Mismatch Check(const TableMetadata& m, const AssertRefSnapshotId& r) {
  const SnapshotRef* ref = m.Ref(r.ref);
  std::optional<std::int64_t> actual = ref ? std::optional<std::int64_t>(ref->snapshot_id) : m.RefSnapshotId(r.ref);
  std::string kind = ref ? std::string(SnapshotRefTypeName(ref->type)) : std::string("branch");
  if (actual) {
    if (!r.snapshot_id) {
      return kind + " " + r.ref + " was created concurrently (snapshot " + std::to_string(*actual) + ")";
    }
    if (*r.snapshot_id != *actual) {
      return kind + " " + r.ref + " has changed: expected id " + std::to_string(*r.snapshot_id) + " != " +
             std::to_string(*actual);
    }
    return std::nullopt;
  }
  if (r.snapshot_id) {
    return "branch or tag " + r.ref + " is missing, expected " + std::to_string(*r.snapshot_id);
  }
  return std::nullopt;
}
Mismatch Check(const TableMetadata& m, const AssertLastAssignedFieldId& r) {
  return ExpectInt("last assigned field id", r.last_assigned_field_id, m.last_column_id);
}
Mismatch Check(const TableMetadata& m, const AssertCurrentSchemaId& r) {
  return ExpectInt("current schema", r.current_schema_id, m.current_schema_id);
}
Mismatch Check(const TableMetadata& m, const AssertLastAssignedPartitionId& r) {
  return ExpectInt("last assigned partition id", r.last_assigned_partition_id, m.last_partition_id);
}
Mismatch Check(const TableMetadata& m, const AssertDefaultSpecId& r) {
  return ExpectInt("default partition spec", r.default_spec_id, m.default_spec_id);
}
Mismatch Check(const TableMetadata& m, const AssertDefaultSortOrderId& r) {
  return ExpectInt("default sort order", r.default_sort_order_id, m.default_sort_order_id);
}

}  // namespace

Status CheckRequirement(const TableMetadata* current, const TableRequirement& requirement) {
  if (current == nullptr) {
    if (std::holds_alternative<AssertCreate>(requirement)) return Status::OK();
    return Failed(RequirementType(requirement), "table does not exist");
  }
  Mismatch mismatch = std::visit([&](const auto& r) { return Check(*current, r); }, requirement);
  if (!mismatch) return Status::OK();
  return Failed(RequirementType(requirement), *mismatch);
}

Status CheckRequirements(const TableMetadata* current, const std::vector<TableRequirement>& requirements) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(current, r));
  return Status::OK();
}

}  // namespace floe::iceberg
