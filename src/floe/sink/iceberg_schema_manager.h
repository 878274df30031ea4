#pragma once
// Creates an Iceberg table on first sight and keeps its schema a superset of what producers
// write (schema/evolution.h decides what merges). Each change is one catalog commit built by
// iceberg::Transaction::SetSchema on fresh metadata, so a concurrent writer's change is never
// overwritten: on a conflict the merge runs again on the new schema.
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/schema/types.h"
#include "floe/sink/table_sink.h"

namespace floe::sink {

class IcebergSchemaManager {
 public:
  // `sort_by` (config sort expressions): the sort order of a table it creates, and of an
  // existing table that has none (unsorted) — one that has its own (another engine set it) keeps it.
  IcebergSchemaManager(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                       std::vector<std::string> partition_by, std::vector<std::string> sort_by = {});

  // The table, fresh from the catalog (kNotFound when it does not exist).
  Result<catalog::LoadedTable> Load();
  // TableSink::EnsureColumns. `after`, when given, receives the table as it stands afterwards.
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns, catalog::LoadedTable* after = nullptr);

  const catalog::TableIdentifier& id() const { return id_; }
  std::string name() const { return catalog::TableIdentifierToString(id_); }

 private:
  Result<catalog::LoadedTable> Create(const schema::Schema& columns);
  // The commit that makes sort_by the default sort order of an unsorted table (nullopt: none due).
  // A sort_by the columns cannot satisfy (no such column) is a config mistake: logged once,
  // never a record error (skip mode would drop records for it).
  std::optional<catalog::TableChange> SortOrderChange(const iceberg::TableMetadata& metadata) const;
  void WarnUnsorted(const Status& why) const;

  catalog::TableCatalog& catalog_;
  catalog::TableIdentifier id_;
  std::vector<std::string> partition_by_;
  std::vector<std::string> sort_by_;
  mutable bool warned_unsorted_ = false;
};

}  // namespace floe::sink
