#pragma once
// Commit preconditions: the TableRequirement objects of the Iceberg REST catalog API
// (CommitTableRequest.requirements, wire form {"type": "assert-ref-snapshot-id", …}).
// A commit applies its updates only if every requirement holds against the table's current
// metadata; otherwise it fails with kConflict, which the REST server answers with HTTP 409
// (CommitFailedException) and a client answers by refreshing and retrying.
//
// Floe's exactly-once protocol leans on assert-ref-snapshot-id for "main": a commit built on
// snapshot S only lands if main still points at S (or, with snapshot-id null, if the table
// still has no main branch).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

struct AssertCreate {};  // the table must not exist
struct AssertTableUuid { std::string uuid; };
struct AssertRefSnapshotId {
  std::string ref;                         // "main", or another branch / tag
  std::optional<std::int64_t> snapshot_id;  // nullopt (JSON null): the ref must not exist
};
struct AssertLastAssignedFieldId { int last_assigned_field_id = 0; };
struct AssertCurrentSchemaId { int current_schema_id = 0; };
struct AssertLastAssignedPartitionId { int last_assigned_partition_id = 0; };
struct AssertDefaultSpecId { int default_spec_id = 0; };
struct AssertDefaultSortOrderId { int default_sort_order_id = 0; };

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertLastAssignedFieldId, AssertCurrentSchemaId,
                 AssertLastAssignedPartitionId, AssertDefaultSpecId, AssertDefaultSortOrderId>;

// The REST "type" string: "assert-create", "assert-ref-snapshot-id", ...
std::string_view RequirementType(const TableRequirement& requirement);

Result<TableRequirement> TableRequirementFromJson(const nlohmann::json& j);
nlohmann::json TableRequirementToJson(const TableRequirement& requirement);  // snapshot-id null is written
Result<std::vector<TableRequirement>> TableRequirementsFromJson(const nlohmann::json& array);
nlohmann::json TableRequirementsToJson(const std::vector<TableRequirement>& requirements);

// Checks the requirements in order against the current metadata (nullptr: the table does
// not exist). The first that fails gives kConflict with a message naming it, what it
// expected and what the table has: "requirement failed: assert-ref-snapshot-id: branch main
// has changed: expected snapshot 1, found 2". With current == nullptr every requirement but
// assert-create fails (kConflict, "table does not exist").
Status CheckRequirements(const TableMetadata* current, const std::vector<TableRequirement>& requirements);
Status CheckRequirement(const TableMetadata* current, const TableRequirement& requirement);

}  // namespace floe::iceberg
