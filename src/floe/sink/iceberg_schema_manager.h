#pragma once
// Creates an Iceberg table on first sight and keeps its schema a superset of what producers
// write (schema/evolution.h decides what merges). Each change is one catalog commit built by
// iceberg::Transaction::SetSchema on fresh metadata, so a concurrent writer's change is never
// overwritten: on a conflict the merge runs again on the new schema.
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/schema/types.h"
#include "floe/sink/table_sink.h"

namespace floe::sink {

class IcebergSchemaManager {
 public:
  IcebergSchemaManager(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                       std::vector<std::string> partition_by);

  // The table, fresh from the catalog (kNotFound when it does not exist).
  Result<catalog::LoadedTable> Load();
  // TableSink::EnsureColumns. `after`, when given, receives the table as it stands afterwards.
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns, catalog::LoadedTable* after = nullptr);

  const catalog::TableIdentifier& id() const { return id_; }
  std::string name() const { return catalog::TableIdentifierToString(id_); }

 private:
  Result<catalog::LoadedTable> Create(const schema::Schema& columns);

  catalog::TableCatalog& catalog_;
  catalog::TableIdentifier id_;
  std::vector<std::string> partition_by_;
};

}  // namespace floe::sink
