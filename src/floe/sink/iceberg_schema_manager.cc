#include "floe/sink/iceberg_schema_manager.h"

#include <spdlog/spdlog.h>

#include "floe/core/retry.h"
#include "floe/iceberg/transaction.h"
#include "floe/schema/evolution.h"

namespace floe::sink {

IcebergSchemaManager::IcebergSchemaManager(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                                           std::vector<std::string> partition_by)
    : catalog_(catalog), id_(std::move(id)), partition_by_(std::move(partition_by)) {}

Result<catalog::LoadedTable> IcebergSchemaManager::Load() { return catalog_.LoadTable(id_); }

Result<catalog::LoadedTable> IcebergSchemaManager::Create(const schema::Schema& columns) {
  if (!catalog_.LoadNamespaceProperties(id_.ns).ok()) {
    auto created = catalog_.CreateNamespace(id_.ns, {});
    if (!created.ok() && created.code() != StatusCode::kAlreadyExists) return created;  // a peer may have won
  }
  catalog::NewTable table;
  table.id = id_;
  table.schema = columns;
  schema::PartitionSpec spec;
  for (std::size_t i = 0; i < partition_by_.size(); ++i) {
    auto field = schema::ParsePartitionExpression(partition_by_[i], columns, 1000 + static_cast<int>(i));
    if (!field.ok()) return field.status().WithContext("table " + name() + ": partition_by '" + partition_by_[i] + "'");
    spec.fields.push_back(*field);
  }
  table.spec = spec;
  table.properties["write.format.default"] = "parquet";
  table.properties["write.parquet.compression-codec"] = "zstd";
  auto created = catalog_.CreateTable(table);
  if (!created.ok() && created.status().code() == StatusCode::kAlreadyExists) return Load();
  if (created.ok()) spdlog::info("created table {} at {}", name(), created->metadata.location);
  return created;
}

Result<SchemaChange> IcebergSchemaManager::EnsureColumns(const schema::Schema& columns, catalog::LoadedTable* after) {
  return RetryOnConflict([&](int) -> Result<SchemaChange> {
    SchemaChange out;
    auto loaded = Load();
    if (!loaded.ok() && loaded.status().code() == StatusCode::kNotFound) {
      loaded = Create(columns);
      out.created = loaded.ok();
    }
    FLOE_RETURN_IF_ERROR(loaded.status());
    const iceberg::TableMetadata& metadata = loaded->metadata;
    int last_column_id = metadata.last_column_id;  // MergeSchemas assigns new ids after it
    auto merged = schema::MergeSchemas(*metadata.CurrentSchema(), columns, last_column_id);
    if (!merged.ok()) {
      out.record_error = merged.status().WithContext("table " + name());
      return out;
    }
    if (!merged->changed) {
      if (after != nullptr) *after = std::move(*loaded);
      return out;
    }
    iceberg::Transaction transaction(metadata);
    FLOE_RETURN_IF_ERROR(transaction.SetSchema(merged->schema, last_column_id));
    auto committed = catalog_.CommitTable({id_, transaction.requirements(), transaction.updates()});
    if (!committed.ok()) return committed.status().WithContext("evolving table " + name());
    out.changes = merged->changes;
    std::string all;
    for (const auto& c : out.changes) all += (all.empty() ? "" : "; ") + c;
    spdlog::info("evolved table {}: {}", name(), all);
    if (after != nullptr) *after = std::move(*committed);
    return out;
  });
}

}  // namespace floe::sink
