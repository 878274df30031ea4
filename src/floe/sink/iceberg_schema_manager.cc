#include "floe/sink/iceberg_schema_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "floe/core/retry.h"
#include "floe/iceberg/transaction.h"
#include "floe/schema/evolution.h"
#include "floe/schema/partition.h"

namespace floe::sink {

IcebergSchemaManager::IcebergSchemaManager(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                                           std::vector<std::string> partition_by, std::vector<std::string> sort_by)
    : catalog_(catalog), id_(std::move(id)), partition_by_(std::move(partition_by)), sort_by_(std::move(sort_by)) {}

void IcebergSchemaManager::WarnUnsorted(const Status& why) const {
  if (warned_unsorted_) return;
  warned_unsorted_ = true;
  spdlog::warn("table {}: sort_by is not applied, the table stays unsorted (records are written as they are): {}",
               name(), why.ToString());
}

std::optional<catalog::TableChange> IcebergSchemaManager::SortOrderChange(
    const iceberg::TableMetadata& metadata) const {
  if (sort_by_.empty() || metadata.default_sort_order_id != iceberg::kUnsortedOrderId) return std::nullopt;
  const schema::Schema* current = metadata.CurrentSchema();
  if (!current) return std::nullopt;
  int order_id = iceberg::kInitialSortOrderId;
  for (const auto& o : metadata.sort_orders) order_id = std::max(order_id, o.order_id + 1);
  auto order = schema::ParseSortOrder(sort_by_, *current, order_id);
  if (!order.ok()) {
    WarnUnsorted(order.status());
    return std::nullopt;
  }
  catalog::TableChange change{id_, {}, {}};
  change.requirements.push_back(iceberg::AssertTableUuid{metadata.table_uuid});
  change.requirements.push_back(iceberg::AssertDefaultSortOrderId{iceberg::kUnsortedOrderId});
  change.updates.push_back(iceberg::AddSortOrderUpdate{*order});
  change.updates.push_back(iceberg::SetDefaultSortOrderUpdate{});
  return change;
}

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
  if (!sort_by_.empty()) {
    auto order = schema::ParseSortOrder(sort_by_, columns, iceberg::kInitialSortOrderId);
    if (order.ok()) table.sort_order = *order;
    else WarnUnsorted(order.status());
  }
  table.properties["write.format.default"] = "parquet";
  table.properties["write.parquet.compression-codec"] = "zstd";
  // Spelled out, so that other engines' commits (Spark, Trino) also delete the metadata files
  // that fall off the metadata-log, as Floe's catalog does for a table without the property.
  table.properties[std::string(iceberg::kPropMetadataDeleteAfterCommit)] = "true";
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
      // An unsorted table gets sort_by (a table created before sort_by was configured).
      auto sorting = SortOrderChange(metadata);
      if (sorting) {
        auto committed = catalog_.CommitTable(*sorting);
        if (!committed.ok()) return committed.status().WithContext("setting the sort order of table " + name());
        spdlog::info("table {}: sort order set from sort_by", name());
        if (after != nullptr) *after = std::move(*committed);
        return out;
      }
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
