#include "floe/sink/delta_schema_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "floe/core/retry.h"
#include "floe/schema/evolution.h"
#include "floe/schema/arrow_schema.h"

namespace floe::sink {

Result<schema::PartitionSpec> DeltaPartitionSpec(const schema::Schema& schema, const std::vector<std::string>& columns) {
  schema::PartitionSpec spec;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const schema::NestedField* field = nullptr;
    for (const auto& f : schema.fields) {
      if (f.name == columns[i]) field = &f;
    }
    if (field == nullptr || !field->type->is_primitive()) {
      return Status::Unsupported("partition_by '" + columns[i] +
                                 "': Delta tables partition by top-level primitive columns only (no transforms such as "
                                 "day(...), no nested columns)");
    }
    schema::PartitionField p;
    p.source_id = field->id;
    p.field_id = 1000 + static_cast<int>(i);
    p.name = field->name;
    spec.fields.push_back(p);
  }
  return spec;
}

DeltaSchemaManager::DeltaSchemaManager(storage::FileIO& table_root, std::string name,
                                       std::vector<std::string> partition_by)
    : table_root_(table_root), name_(std::move(name)), partition_by_(std::move(partition_by)) {}

Result<SchemaChange> DeltaSchemaManager::EnsureColumns(const schema::Schema& columns) {
  auto outcome = RetryOnConflict([&](int) -> Result<SchemaChange> {
    SchemaChange out;
    FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(table_root_));
    delta::Commit commit;
    if (state.version < 0) {
      commit.schema = schema::AssignFreshIds(columns);
      FLOE_RETURN_IF_ERROR(DeltaPartitionSpec(*commit.schema, partition_by_).status().WithContext("table " + name_));
      commit.partition_columns = partition_by_;
      commit.operation = "CREATE TABLE";
      out.created = true;
    } else {
      int last_column_id = state.schema.HighestFieldId();
      if (auto it = state.configuration.find("delta.columnMapping.maxColumnId"); it != state.configuration.end()) {
        last_column_id = std::max(last_column_id, std::atoi(it->second.c_str()));
      }
      auto merged = schema::MergeSchemas(state.schema, columns, last_column_id);
      if (!merged.ok()) {
        out.record_error = merged.status().WithContext("table " + name_);
        return out;
      }
      if (!merged->changed) return out;
      commit.schema = merged->schema;
      commit.operation = "CHANGE COLUMN";
      out.changes = merged->changes;
    }
    FLOE_ASSIGN_OR_RETURN(auto version, delta::CommitVersion(table_root_, state, commit));
    spdlog::info("{} table {} (version {})", out.created ? "created" : "evolved", name_, version);
    return out;
  });
  if (!outcome.ok()) return outcome.status().WithContext("table " + name_);
  return outcome;
}

Status DeltaSchemaManager::SyncSchema(const schema::Schema& schema) {
  auto outcome = RetryOnConflict([&](int) -> Status {
    FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(table_root_));
    delta::Commit commit;
    if (state.version < 0) {
      FLOE_RETURN_IF_ERROR(DeltaPartitionSpec(schema, partition_by_).status());
      commit.partition_columns = partition_by_;
      commit.operation = "CREATE TABLE";
    } else if (state.schema.AsStruct()->Equals(*schema.AsStruct())) {
      return Status::OK();
    } else {
      commit.operation = "CHANGE COLUMN";
    }
    commit.schema = schema;
    return delta::CommitVersion(table_root_, state, commit).status();
  });
  return outcome.WithContext("table " + name_);
}

}  // namespace floe::sink
