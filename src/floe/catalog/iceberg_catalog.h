#pragma once
// The Iceberg-aware catalog: table metadata files in the warehouse plus the atomic pointer
// swap of the SQL catalog. Both Floe's own commits and the REST catalog server go through
// it, so a commit from pyiceberg and one from the pipeline follow one protocol:
// load fresh metadata -> check requirements -> apply updates -> write a new metadata file
// -> compare-and-swap the pointer (kConflict if another writer won; callers retry).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_update.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"
#include "floe/storage/file_io.h"

namespace floe::catalog {

struct LoadedTable {
  TableIdentifier id;
  std::string metadata_location;
  iceberg::TableMetadata metadata;
};

struct NewTable {
  TableIdentifier id;
  schema::Schema schema;  // field ids are reassigned from 1 (spec and sort order follow by name)
  std::optional<schema::PartitionSpec> spec;
  std::optional<schema::SortOrder> sort_order;
  std::string location;  // empty: <warehouse>/<namespace parts>/<table>
  std::map<std::string, std::string> properties;
};

struct TableChange {
  TableIdentifier id;
  std::vector<iceberg::TableRequirement> requirements;
  std::vector<iceberg::TableUpdate> updates;
};

class IcebergCatalog {
 public:
  // catalog_uri: sqlite:///… or postgresql://…; warehouse: a path or URI for new tables.
  static Result<std::unique_ptr<IcebergCatalog>> Open(const std::string& catalog_uri, const std::string& warehouse,
                                                      const std::string& catalog_name = "floe");

  Catalog& pointers() { return *pointers_; }
  const std::string& warehouse_uri() const { return warehouse_uri_; }

  Result<LoadedTable> LoadTable(const TableIdentifier& id);
  // Builds the first metadata; with stage_only it is returned but not written or registered
  // (REST "stage-create": the client commits it later with assert-create).
  Result<LoadedTable> CreateTable(const NewTable& table, bool stage_only = false);
  // One commit attempt against fresh metadata; kConflict when a requirement fails or the
  // pointer moved underneath. A missing table with an assert-create requirement is created.
  Result<LoadedTable> CommitTable(const TableChange& change);
  // Several tables: all requirements are checked and all metadata files written before any
  // pointer moves; pointers then move in one database transaction.
  Status CommitTransaction(const std::vector<TableChange>& changes);
  Status DropTable(const TableIdentifier& id, bool purge);
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location);

 private:
  IcebergCatalog(std::unique_ptr<Catalog> pointers, std::string warehouse_uri);
  Result<iceberg::TableMetadata> ReadMetadata(const std::string& location);
  Result<std::string> WriteMetadata(const iceberg::TableMetadata& metadata, int version);
  std::string DefaultLocation(const TableIdentifier& id) const;

  std::unique_ptr<Catalog> pointers_;
  std::string warehouse_uri_;
};

}  // namespace floe::catalog
