#pragma once
// The Iceberg-aware catalog: table metadata files in the warehouse plus the atomic pointer
// swap of the SQL catalog. Both Floe's own commits and the REST catalog server go through
// it, so a commit from pyiceberg and one from the pipeline follow one protocol:
// load fresh metadata -> check requirements -> apply updates -> write a new metadata file
// -> compare-and-swap the pointer (kConflict if another writer won; callers retry).
// TableCatalog is the interface it shares with the Iceberg REST client (rest_catalog_client.h).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/catalog/metadata_cache.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/view_update.h"
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

struct LoadedView {
  TableIdentifier id;
  std::string metadata_location;
  iceberg::ViewMetadata metadata;
};

struct ViewChange {
  TableIdentifier id;
  std::vector<iceberg::AssertViewUuid> requirements;
  std::vector<iceberg::ViewUpdate> updates;
};

// --- TableCatalog: what the pipeline codes against --------------------------------------------
// A catalog of Iceberg tables, whoever writes the metadata files: IcebergCatalog below (Floe's
// SQL pointer store; Floe writes the files itself) or RestCatalogClient (rest_catalog_client.h;
// an external Iceberg REST catalog server applies commits and writes the files). Thread-safe.
// Status codes follow catalog.h: kNotFound, kAlreadyExists (create / rename / register target),
// kConflict (a requirement failed or another writer won: reload and retry; also dropping a
// namespace that is not empty), kInvalidArgument, kUnavailable (retry with backoff; for a commit
// the outcome may be unknown: reload and check whether the change landed before retrying).
class TableCatalog {
 public:
  virtual ~TableCatalog() = default;

  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  virtual Result<Properties> LoadNamespaceProperties(const Namespace& ns) = 0;
  virtual Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                           const Properties& updates) = 0;
  virtual Status DropNamespace(const Namespace& ns) = 0;

  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  virtual Result<LoadedTable> LoadTable(const TableIdentifier& id) = 0;
  // With stage_only the table is not created: the result (metadata_location empty) is the
  // starting point of a later CommitTable with an assert-create requirement.
  virtual Result<LoadedTable> CreateTable(const NewTable& table, bool stage_only = false) = 0;
  virtual Result<LoadedTable> CommitTable(const TableChange& change) = 0;
  // All changes land or none does.
  virtual Status CommitTransaction(const std::vector<TableChange>& changes) = 0;
  virtual Status DropTable(const TableIdentifier& id, bool purge) = 0;
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  virtual Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) = 0;
};

// The TableCatalog whose metadata files Floe writes itself, over a pointer store: the SQL
// catalog (catalog.type: builtin) or AWS Glue (catalog.type: glue, glue_catalog.h).
class IcebergCatalog final : public TableCatalog {
 public:
  // catalog_uri: sqlite:///… or postgresql://…; warehouse: a path or URI for new tables.
  static Result<std::unique_ptr<IcebergCatalog>> Open(const std::string& catalog_uri, const std::string& warehouse,
                                                      const std::string& catalog_name = "floe");
  // Over a given pointer store (Glue's).
  static Result<std::unique_ptr<IcebergCatalog>> Over(std::unique_ptr<Catalog> pointers, const std::string& warehouse);

  Catalog& pointers() { return *pointers_; }
  const std::string& warehouse_uri() const { return warehouse_uri_; }

  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  // Builds the first metadata; with stage_only it is returned but not written or registered
  // (REST "stage-create": the client commits it later with assert-create).
  Result<LoadedTable> CreateTable(const NewTable& table, bool stage_only = false) override;
  // One commit attempt against fresh metadata; kConflict when a requirement fails or the
  // pointer moved underneath. A missing table with an assert-create requirement is created.
  Result<LoadedTable> CommitTable(const TableChange& change) override;
  // Several tables: all requirements are checked and all metadata files written before any
  // pointer moves; pointers then move in one database transaction.
  Status CommitTransaction(const std::vector<TableChange>& changes) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) override;

  // TableCatalog's namespace operations, ListTables and RenameTable: the pointer store's.
  Status CreateNamespace(const Namespace& ns, const Properties& properties) override {
    return pointers_->CreateNamespace(ns, properties);
  }
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override {
    return pointers_->ListNamespaces(parent);
  }
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override {
    return pointers_->LoadNamespaceProperties(ns);
  }
  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const Properties& updates) override {
    return pointers_->UpdateNamespaceProperties(ns, removals, updates);
  }
  Status DropNamespace(const Namespace& ns) override { return pointers_->DropNamespace(ns); }
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override { return pointers_->ListTables(ns); }
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override {
    return pointers_->RenameTable(from, to);
  }

  // --- Views (iceberg/view_metadata.h; iceberg_catalog_views.cc) --------------------------------
  // Served by the REST catalog; the pipeline never uses them. Metadata files are written like a
  // table's (`<location>/metadata/NNNNN-<uuid>.metadata.json`, or write.metadata.path), the
  // pointers are the store's view pointers (catalog.h: kUnsupported where there are none).
  // Tables and views share names: creating either over the other is kAlreadyExists.
  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) { return pointers_->ListViews(ns); }
  Result<LoadedView> LoadView(const TableIdentifier& id);
  // The namespace must exist and the name be free (checked before anything is written);
  // view.location empty: DefaultTableLocation. An invalid view is kInvalidArgument, worded as
  // Java's view builder words it.
  Result<LoadedView> CreateView(const TableIdentifier& id, iceberg::NewView view);
  // One attempt against fresh metadata: requirements, updates, a new metadata file, the
  // pointer's compare-and-swap (kConflict when it moved). Nothing written when nothing changed.
  Result<LoadedView> CommitView(const ViewChange& change);
  Status DropView(const TableIdentifier& id) { return pointers_->DropView(id); }
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) { return pointers_->RenameView(from, to); }

 private:
  IcebergCatalog(std::unique_ptr<Catalog> pointers, std::string warehouse_uri);
  Result<iceberg::TableMetadata> ReadMetadata(const std::string& location);
  Result<std::string> WriteMetadata(const iceberg::TableMetadata& metadata, int version);
  // The whole file at `uri`; a new metadata file `version` in `directory`, returning its URI
  // (spelled as `directory` is when that is a URI: Java clients compare it with their path).
  static Result<std::string> ReadFile(const std::string& uri);
  static Result<std::string> WriteMetadataFile(const std::string& directory, int version, const std::string& text);
  std::string DefaultLocation(const TableIdentifier& id) const;

  std::unique_ptr<Catalog> pointers_;
  std::string warehouse_uri_;
  MetadataCache metadata_cache_;  // files read or written here, parsed
};

// Where a new table (or view) lives unless told otherwise: <warehouse>/<namespace levels…>/<table>
// (Iceberg tables of the built-in catalog, and Delta tables). A level or name containing '/'
// is one directory: its '/' become '_', followed by '-' and 8 hex digits of a hash of the name
// ("tab/le" -> "tab_le-1a2b3c4d"), so that it neither nests nor collides with another name.
std::string DefaultTableLocation(std::string warehouse, const TableIdentifier& id);

// --- Opening the configured catalog ------------------------------------------------------------
// catalog.type builtin: an IcebergCatalog over DefaultCatalogUri(config) and `warehouse`;
// rest: a RestCatalogClient (rest_catalog_client.h) at catalog.uri with catalog.token as the bearer
// token and `warehouse` (when set) as the /v1/config warehouse parameter; glue: an
// IcebergCatalog over the Glue pointer store (glue_catalog.h) and `warehouse`.
Result<std::unique_ptr<TableCatalog>> OpenTableCatalog(const FloeConfig& config);

}  // namespace floe::catalog
