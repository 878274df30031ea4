#pragma once
// The catalog: where a table's name maps to its current metadata file. Floe's commits are an
// atomic compare-and-swap of that pointer (docs/architecture.md, "Exactly-once commit protocol"); the
// catalog stores pointers (strings) and never reads the metadata they point to.
//
// Every implementation is thread-safe: one instance per process is shared by the pipeline's
// workers and the REST server. Failures are Status values:
//   kInvalidArgument  a name or value breaks the rules below
//   kNotFound         the namespace / table does not exist
//   kAlreadyExists    create (or rename target) of something that is there
//   kConflict         CAS lost (reload and retry), or dropping a namespace that is not empty
//   kUnavailable      the database is unreachable or locked: retry with backoff. For a write
//                     this can mean "outcome unknown" (the connection dropped after the request
//                     was sent): a committer that retries must treat "the location already is
//                     my `next`" as its own success.
//
// Names: a namespace has at least one level; each level is non-empty UTF-8 without NUL and
// without '.', because levels are stored joined with '.' ("a.b") as Iceberg's JDBC catalog
// does. The joined namespace, table names, property keys and catalog names are at most 255
// bytes; metadata locations and property values at most 1000 bytes (the column sizes).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"

namespace floe::iceberg {
struct TableMetadata;
}  // namespace floe::iceberg

namespace floe::catalog {

using Namespace = std::vector<std::string>;  // multi-level: {"a", "b"} is "a.b"
using Properties = std::map<std::string, std::string>;

struct TableIdentifier {
  Namespace ns;
  std::string name;

  friend bool operator==(const TableIdentifier&, const TableIdentifier&) = default;
  friend auto operator<=>(const TableIdentifier&, const TableIdentifier&) = default;
};

struct TableRecord {
  TableIdentifier id;
  std::string metadata_location;
  std::string previous_metadata_location;  // empty until the first swap
};

struct SwapRequest {
  TableIdentifier id;
  std::string expected;
  std::string next;
  // The metadata `next` names, when the caller has it (IcebergCatalog always does; not owned):
  // a store that mirrors part of it beside the pointer writes that in the same swap.
  const iceberg::TableMetadata* metadata = nullptr;
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  // kAlreadyExists if the namespace exists, also implicitly (it has child namespaces or
  // tables, which is how the JDBC catalog defines existence). The property key "exists" is
  // reserved (kInvalidArgument): it is the row that marks an explicitly created namespace.
  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;
  // Direct children of `parent`, sorted; parent {} lists the top level. kNotFound if a
  // non-empty parent does not exist.
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  // The namespace's properties, without the reserved "exists" marker. kNotFound.
  virtual Result<Properties> LoadNamespaceProperties(const Namespace& ns) = 0;
  // Removes `removals` (keys that are not set are ignored) and sets `updates`, atomically.
  // kNotFound; kInvalidArgument if a key is in both, or is "exists".
  virtual Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                           const Properties& updates) = 0;
  // kNotFound; kConflict while it still has tables (or views) or child namespaces.
  virtual Status DropNamespace(const Namespace& ns) = 0;

  // Tables directly in `ns`, sorted by name. kNotFound if the namespace does not exist.
  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  // kAlreadyExists (also when a view has that name); kNotFound if the namespace is missing.
  virtual Status CreateTable(const TableIdentifier& id, const std::string& metadata_location) = 0;
  // kNotFound.
  virtual Result<TableRecord> LoadTable(const TableIdentifier& id) = 0;
  // Atomic compare-and-swap: sets the location to `next` (and the previous location to
  // `expected`) only if the current location equals `expected`; otherwise kConflict, and the
  // caller reloads and retries. kNotFound if the table does not exist.
  virtual Status SwapMetadataLocation(const TableIdentifier& id, const std::string& expected,
                                      const std::string& next) = 0;
  // Several swaps in one database transaction: all take effect or none does (the first
  // failing one's status is returned). Multi-table commits of the REST API use this.
  virtual Status SwapMetadataLocations(const std::vector<SwapRequest>& swaps) = 0;
  // CreateTable with the metadata `metadata_location` names, for a store that mirrors part of it
  // beside the pointer in the same write: AWS Glue keeps the table's location and column list
  // for engines and consoles that read Glue rather than the metadata file (glue_catalog.h).
  // IcebergCatalog creates through this (and swaps with SwapRequest::metadata); the default
  // keeps the pointer alone, which is all the SQL catalog stores.
  virtual Status CreateTableWithMetadata(const TableIdentifier& id, const std::string& metadata_location,
                                         const iceberg::TableMetadata& /*metadata*/) {
    return CreateTable(id, metadata_location);
  }
  // kNotFound. Only the catalog entry goes; the table's files stay.
  virtual Status DropTable(const TableIdentifier& id) = 0;
  // Moves the entry, also across namespaces; the metadata location is unchanged.
  // kNotFound if `from` or the target namespace is missing; kAlreadyExists if `to` exists.
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;

  // --- Views (Iceberg's view spec): pointers to view metadata files, in the same name space
  // as tables (a view and a table never share a name: kAlreadyExists either way). Each call is
  // its table twin for views; the SQL catalog keeps them as rows with iceberg_type 'VIEW', as
  // Iceberg's JDBC catalog and pyiceberg do. A store without views answers kUnsupported (the
  // defaults below): AWS Glue, or a SQL database whose iceberg_tables lacks iceberg_type.
  virtual Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns);
  virtual Status CreateView(const TableIdentifier& id, const std::string& metadata_location);
  virtual Result<TableRecord> LoadView(const TableIdentifier& id);
  virtual Status SwapViewMetadataLocation(const TableIdentifier& id, const std::string& expected,
                                          const std::string& next);
  virtual Status DropView(const TableIdentifier& id);
  virtual Status RenameView(const TableIdentifier& from, const TableIdentifier& to);
};

// --- Names -----------------------------------------------------------------------------------

// "a.b" for {"a","b"}; "" for {}.
std::string NamespaceToString(const Namespace& ns);
// "a.b.t" for ({"a","b"}, "t").
std::string TableIdentifierToString(const TableIdentifier& id);
// "a.b" -> {"a","b"}; "" -> {}. No validation.
Namespace NamespaceFromString(std::string_view text);
// "a.b.t" -> ({"a","b"}, "t"): the last level is the table. kInvalidArgument without a '.'.
Result<TableIdentifier> ParseTableIdentifier(std::string_view text);

// The rules from the top of this file; the messages name what is wrong.
Status ValidateNamespace(const Namespace& ns);
Status ValidateTableIdentifier(const TableIdentifier& id);
Status ValidateCatalogName(std::string_view name);
Status ValidateMetadataLocation(std::string_view location);
Status ValidatePropertyKey(std::string_view key);
Status ValidatePropertyValue(std::string_view key, std::string_view value);

}  // namespace floe::catalog
