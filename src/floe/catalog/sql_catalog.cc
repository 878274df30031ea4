// The SQL catalog's logic, written once over SqlConnection for SQLite and PostgreSQL.
//
// Tables and conventions are those of Iceberg's JDBC catalog and pyiceberg's SqlCatalog:
//   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
//                  previous_metadata_location, iceberg_type)      -- key: the first three
//   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
// A namespace is stored as its levels joined with '.'. It exists if any row of either table
// has it, or has it as a prefix ("a" exists when "a.b" does); CreateNamespace writes the
// property row exists=true so that an empty namespace exists too. iceberg_type ('TABLE' or
// 'VIEW', NULL in rows written before the column existed) is absent from schemas created by
// older JDBC catalogs ("v0"); then every row is a table, nothing writes the column and views
// are kUnsupported. Tables and views are the same calls on rows of one kind (Kind below);
// one name holds a table or a view, never both.
#include "floe/catalog/sql_catalog.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <utility>

#include "floe/catalog/sql_connection_internal.h"

namespace floe::catalog {

using internal::SqlConnection;
using internal::SqlResult;
using internal::TxnKind;

namespace {

enum class Kind { kTable, kView };

// "Table" / "View": how Iceberg's messages name each kind.
const char* KindName(Kind kind) { return kind == Kind::kTable ? "Table" : "View"; }

constexpr const char* kCreateTablesTable =
    "CREATE TABLE IF NOT EXISTS iceberg_tables ("
    "catalog_name VARCHAR(255) NOT NULL, "
    "table_namespace VARCHAR(255) NOT NULL, "
    "table_name VARCHAR(255) NOT NULL, "
    "metadata_location VARCHAR(1000), "
    "previous_metadata_location VARCHAR(1000), "
    "iceberg_type VARCHAR(5), "
    "PRIMARY KEY (catalog_name, table_namespace, table_name))";

constexpr const char* kCreateNamespacePropertiesTable =
    "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties ("
    "catalog_name VARCHAR(255) NOT NULL, "
    "namespace VARCHAR(255) NOT NULL, "
    "property_key VARCHAR(255) NOT NULL, "
    "property_value VARCHAR(1000) NOT NULL, "
    "PRIMARY KEY (catalog_name, namespace, property_key))";

// The namespace itself (?2) or any namespace below it (its first ?3 characters are ?4 = "ns.").
// substr/length count characters in both SQLite and PostgreSQL; equality is exact (case- and
// byte-sensitive), unlike LIKE, which SQLite matches case-insensitively and which would need
// '_' and '%' escaped.
constexpr const char* kNamespaceExists =
    "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ?1 "
    "AND (namespace = ?2 OR substr(namespace, 1, CAST(?3 AS INTEGER)) = ?4) "
    "UNION ALL "
    "SELECT 1 FROM iceberg_tables WHERE catalog_name = ?1 "
    "AND (table_namespace = ?2 OR substr(table_namespace, 1, CAST(?3 AS INTEGER)) = ?4) "
    "LIMIT 1";

constexpr const char* kHasChildNamespace =
    "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ?1 "
    "AND substr(namespace, 1, CAST(?2 AS INTEGER)) = ?3 "
    "UNION ALL "
    "SELECT 1 FROM iceberg_tables WHERE catalog_name = ?1 "
    "AND substr(table_namespace, 1, CAST(?2 AS INTEGER)) = ?3 "
    "LIMIT 1";

constexpr const char* kInsertProperty =
    "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
    "VALUES (?1, ?2, ?3, ?4)";

constexpr const char* kUpsertProperty =
    "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
    "VALUES (?1, ?2, ?3, ?4) "
    "ON CONFLICT (catalog_name, namespace, property_key) DO UPDATE SET property_value = excluded.property_value";

constexpr const char* kEnsureExistsProperty =
    "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
    "VALUES (?1, ?2, 'exists', 'true') "
    "ON CONFLICT (catalog_name, namespace, property_key) DO NOTHING";

constexpr const char* kSchemaLockKey = "floe-catalog-schema";

std::size_t Utf8Length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Rolls back unless committed.
class Txn {
 public:
  explicit Txn(SqlConnection& conn) : conn_(conn) {}
  ~Txn() {
    if (open_) conn_.Rollback();
  }
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;

  Status Begin(TxnKind kind, std::string_view lock_key = {}) {
    FLOE_RETURN_IF_ERROR(conn_.Begin(kind, lock_key));
    open_ = true;
    return Status::OK();
  }
  Status Commit() {
    open_ = false;
    return conn_.Commit();
  }

 private:
  SqlConnection& conn_;
  bool open_ = false;
};

class SqlCatalog final : public Catalog {
 public:
  SqlCatalog(std::unique_ptr<SqlConnection> conn, std::string catalog_name)
      : conn_(std::move(conn)), catalog_(std::move(catalog_name)), ddl_lock_key_("catalog:" + catalog_) {}

  Status Init() {
    std::lock_guard lock(mu_);
    Status tables = Probe("SELECT catalog_name FROM iceberg_tables LIMIT 0");
    if (tables.code() == StatusCode::kUnavailable) return tables;
    Status properties = Probe("SELECT catalog_name FROM iceberg_namespace_properties LIMIT 0");
    if (properties.code() == StatusCode::kUnavailable) return properties;
    if (!tables.ok() || !properties.ok()) {
      // Several processes may get here at once: the lock (PostgreSQL) or the write
      // transaction (SQLite) lets one create, and IF NOT EXISTS makes the others no-ops.
      Txn txn(*conn_);
      FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kSerializedWrite, kSchemaLockKey));
      FLOE_RETURN_IF_ERROR(Exec(kCreateTablesTable, {}).status().WithContext("creating table iceberg_tables"));
      FLOE_RETURN_IF_ERROR(Exec(kCreateNamespacePropertiesTable, {})
                               .status()
                               .WithContext("creating table iceberg_namespace_properties"));
      FLOE_RETURN_IF_ERROR(txn.Commit());
    }
    Status type_column = Probe("SELECT iceberg_type FROM iceberg_tables LIMIT 0");
    if (type_column.code() == StatusCode::kUnavailable) return type_column;
    if (type_column.ok()) {
      table_filter_ = " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)";
      table_type_column_ = ", iceberg_type";
    }
    return Status::OK();
  }

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override {
    FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
    for (const auto& [key, value] : properties) {
      FLOE_RETURN_IF_ERROR(ValidatePropertyKey(key));
      FLOE_RETURN_IF_ERROR(ValidatePropertyValue(key, value));
    }
    const std::string name = NamespaceToString(ns);
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kSerializedWrite, ddl_lock_key_));
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(name));
    if (exists) return NamespaceExistsError(name);
    auto inserted = Exec(kInsertProperty, {catalog_, name, "exists", "true"});
    if (inserted.status().code() == StatusCode::kAlreadyExists) return NamespaceExistsError(name);
    FLOE_RETURN_IF_ERROR(inserted.status());
    for (const auto& [key, value] : properties) {
      FLOE_RETURN_IF_ERROR(Exec(kInsertProperty, {catalog_, name, key, value}).status());
    }
    return txn.Commit();
  }

  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override {
    if (!parent.empty()) FLOE_RETURN_IF_ERROR(ValidateNamespace(parent));
    const std::string parent_name = NamespaceToString(parent);
    const std::string prefix = parent_name + ".";
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kRead));
    Result<SqlResult> rows = Status::Internal("unset");
    if (parent.empty()) {
      rows = Exec("SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1 "
                  "UNION SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1",
                  {catalog_});
    } else {
      FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(parent_name));
      if (!exists) return NamespaceNotFound(parent_name);
      rows = Exec("SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1 "
                  "AND substr(namespace, 1, CAST(?2 AS INTEGER)) = ?3 "
                  "UNION SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1 "
                  "AND substr(table_namespace, 1, CAST(?2 AS INTEGER)) = ?3",
                  {catalog_, std::to_string(Utf8Length(prefix)), prefix});
    }
    FLOE_RETURN_IF_ERROR(rows.status());
    FLOE_RETURN_IF_ERROR(txn.Commit());
    std::set<Namespace> children;
    for (const auto& row : rows->rows) {
      if (!row[0] || row[0]->empty()) continue;  // JDBC catalogs allow tables without a namespace
      Namespace ns = NamespaceFromString(*row[0]);
      if (ns.size() <= parent.size()) continue;
      if (!std::equal(parent.begin(), parent.end(), ns.begin())) continue;
      ns.resize(parent.size() + 1);
      if (ns.back().empty()) continue;  // "a..b" written by someone else
      children.insert(std::move(ns));
    }
    return std::vector<Namespace>(children.begin(), children.end());
  }

  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
    const std::string name = NamespaceToString(ns);
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kRead));
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(name));
    if (!exists) return NamespaceNotFound(name);
    FLOE_ASSIGN_OR_RETURN(auto rows, Exec("SELECT property_key, property_value FROM iceberg_namespace_properties "
                                          "WHERE catalog_name = ?1 AND namespace = ?2",
                                          {catalog_, name}));
    FLOE_RETURN_IF_ERROR(txn.Commit());
    Properties out;
    for (const auto& row : rows.rows) {
      if (!row[0] || *row[0] == "exists") continue;
      out[*row[0]] = row[1].value_or("");
    }
    return out;
  }

  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const Properties& updates) override {
    FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
    for (const auto& key : removals) {
      FLOE_RETURN_IF_ERROR(ValidatePropertyKey(key));
      if (updates.count(key)) {
        return Status::InvalidArgument("namespace property " + Quoted(key) + " is both removed and updated");
      }
    }
    for (const auto& [key, value] : updates) {
      FLOE_RETURN_IF_ERROR(ValidatePropertyKey(key));
      FLOE_RETURN_IF_ERROR(ValidatePropertyValue(key, value));
    }
    const std::string name = NamespaceToString(ns);
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kSerializedWrite, ddl_lock_key_));
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(name));
    if (!exists) return NamespaceNotFound(name);
    for (const auto& key : removals) {
      FLOE_RETURN_IF_ERROR(Exec("DELETE FROM iceberg_namespace_properties "
                                "WHERE catalog_name = ?1 AND namespace = ?2 AND property_key = ?3",
                                {catalog_, name, key})
                               .status());
    }
    for (const auto& [key, value] : updates) {
      FLOE_RETURN_IF_ERROR(Exec(kUpsertProperty, {catalog_, name, key, value}).status());
    }
    // A namespace that existed only through its properties or children (one created by
    // pyiceberg with properties, or implied by "a.b") keeps existing when they go.
    FLOE_RETURN_IF_ERROR(Exec(kEnsureExistsProperty, {catalog_, name}).status());
    return txn.Commit();
  }

  Status DropNamespace(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
    const std::string name = NamespaceToString(ns);
    const std::string prefix = name + ".";
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kSerializedWrite, ddl_lock_key_));
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(name));
    if (!exists) return NamespaceNotFound(name);
    // Any row, views included: dropping the namespace would orphan them.
    FLOE_ASSIGN_OR_RETURN(auto tables, Exec("SELECT table_name FROM iceberg_tables "
                                            "WHERE catalog_name = ?1 AND table_namespace = ?2 LIMIT 1",
                                            {catalog_, name}));
    if (!tables.rows.empty()) {
      return Status::Conflict("namespace " + Quoted(name) + " is not empty: it still has table " +
                              Quoted(tables.rows[0][0].value_or("")) + " (drop or move its tables first)");
    }
    FLOE_ASSIGN_OR_RETURN(auto children,
                          Exec(kHasChildNamespace, {catalog_, std::to_string(Utf8Length(prefix)), prefix}));
    if (!children.rows.empty()) {
      return Status::Conflict("namespace " + Quoted(name) +
                              " is not empty: it has child namespaces (drop them first)");
    }
    FLOE_RETURN_IF_ERROR(
        Exec("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND namespace = ?2", {catalog_, name})
            .status());
    return txn.Commit();
  }

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override { return List(ns, Kind::kTable); }
  Status CreateTable(const TableIdentifier& id, const std::string& metadata_location) override {
    return Create(id, metadata_location, Kind::kTable);
  }
  Result<TableRecord> LoadTable(const TableIdentifier& id) override { return Load(id, Kind::kTable); }
  Status SwapMetadataLocation(const TableIdentifier& id, const std::string& expected,
                              const std::string& next) override {
    return Swap({{id, expected, next}}, Kind::kTable);
  }
  Status SwapMetadataLocations(const std::vector<SwapRequest>& swaps) override { return Swap(swaps, Kind::kTable); }
  Status DropTable(const TableIdentifier& id) override { return Drop(id, Kind::kTable); }
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override {
    return Rename(from, to, Kind::kTable);
  }

  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(ViewsSupported());
    return List(ns, Kind::kView);
  }
  Status CreateView(const TableIdentifier& id, const std::string& metadata_location) override {
    FLOE_RETURN_IF_ERROR(ViewsSupported());
    return Create(id, metadata_location, Kind::kView);
  }
  Result<TableRecord> LoadView(const TableIdentifier& id) override {
    FLOE_RETURN_IF_ERROR(ViewsSupported());
    return Load(id, Kind::kView);
  }
  Status SwapViewMetadataLocation(const TableIdentifier& id, const std::string& expected,
                                  const std::string& next) override {
    FLOE_RETURN_IF_ERROR(ViewsSupported());
    return Swap({{id, expected, next}}, Kind::kView);
  }
  Status DropView(const TableIdentifier& id) override {
    FLOE_RETURN_IF_ERROR(ViewsSupported());
    return Drop(id, Kind::kView);
  }
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override {
    FLOE_RETURN_IF_ERROR(ViewsSupported());
    return Rename(from, to, Kind::kView);
  }

 private:
  Result<std::vector<TableIdentifier>> List(const Namespace& ns, Kind kind) {
    FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
    const std::string name = NamespaceToString(ns);
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kRead));
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(name));
    if (!exists) return NamespaceNotFound(name);
    FLOE_ASSIGN_OR_RETURN(auto rows, Exec("SELECT table_name FROM iceberg_tables "
                                          "WHERE catalog_name = ?1 AND table_namespace = ?2" +
                                              Filter(kind),
                                          {catalog_, name}));
    FLOE_RETURN_IF_ERROR(txn.Commit());
    std::vector<TableIdentifier> out;
    for (const auto& row : rows.rows) {
      if (row[0]) out.push_back({ns, *row[0]});
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  Status Create(const TableIdentifier& id, const std::string& metadata_location, Kind kind) {
    FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(id));
    FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(metadata_location));
    const std::string ns = NamespaceToString(id.ns);
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kSerializedWrite, ddl_lock_key_));
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
    if (!exists) return NamespaceNotFound(ns);
    FLOE_RETURN_IF_ERROR(CheckNameFree(id, kind));
    const std::string type_value = table_type_column_.empty() ? "" : kind == Kind::kTable ? ", 'TABLE'" : ", 'VIEW'";
    auto inserted = Exec("INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
                         "previous_metadata_location" +
                             table_type_column_ + ") VALUES (?1, ?2, ?3, ?4, NULL" + type_value + ")",
                         {catalog_, ns, id.name, metadata_location});
    if (inserted.status().code() == StatusCode::kAlreadyExists) return Exists(id, kind);
    FLOE_RETURN_IF_ERROR(inserted.status());
    return txn.Commit();
  }

  Result<TableRecord> Load(const TableIdentifier& id, Kind kind) {
    FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(id));
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kRead));
    FLOE_ASSIGN_OR_RETURN(auto rows, Exec("SELECT metadata_location, previous_metadata_location FROM iceberg_tables "
                                          "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3" +
                                              Filter(kind),
                                          {catalog_, NamespaceToString(id.ns), id.name}));
    FLOE_RETURN_IF_ERROR(txn.Commit());
    if (rows.rows.empty()) return NotFound(id, kind);
    return TableRecord{id, rows.rows[0][0].value_or(""), rows.rows[0][1].value_or("")};
  }

  Status Swap(const std::vector<SwapRequest>& swaps, Kind kind) {
    for (const auto& s : swaps) {
      FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(s.id));
      if (!s.expected.empty()) FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(s.expected));
      FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(s.next));
    }
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
    for (const auto& s : swaps) FLOE_RETURN_IF_ERROR(SwapInTransaction(s, kind));  // Txn rolls back on return
    Status committed = txn.Commit();
    if (committed.code() == StatusCode::kUnavailable) {
      const std::string what = swaps.size() == 1 ? Quoted(TableIdentifierToString(swaps[0].id))
                                                 : std::to_string(swaps.size()) + " tables";
      return committed.WithContext("swapping the metadata location of " + what +
                                   " (reload: if the location is the new one, the swap took effect)");
    }
    return committed;
  }

  Status Drop(const TableIdentifier& id, Kind kind) {
    FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(id));
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
    FLOE_ASSIGN_OR_RETURN(auto deleted,
                          Exec("DELETE FROM iceberg_tables "
                               "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3" +
                                   Filter(kind),
                               {catalog_, NamespaceToString(id.ns), id.name}));
    if (deleted.affected_rows == 0) return NotFound(id, kind);
    return txn.Commit();
  }

  // Iceberg's wording when the target is taken: "Cannot rename ns.a to ns.b. View already exists".
  Status Rename(const TableIdentifier& from, const TableIdentifier& to, Kind kind) {
    FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(from));
    FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(to));
    const std::string from_ns = NamespaceToString(from.ns), to_ns = NamespaceToString(to.ns);
    std::lock_guard lock(mu_);
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kSerializedWrite, ddl_lock_key_));
    FLOE_ASSIGN_OR_RETURN(auto source, Exec("SELECT 1 FROM iceberg_tables "
                                            "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3" +
                                                Filter(kind),
                                            {catalog_, from_ns, from.name}));
    if (source.rows.empty()) return NotFound(from, kind);
    FLOE_ASSIGN_OR_RETURN(bool target_ns_exists, NamespaceExists(to_ns));
    if (!target_ns_exists) return NamespaceNotFound(to_ns).WithContext("renaming " + Quoted(TableIdentifierToString(from)));
    const std::string what = "Cannot rename " + TableIdentifierToString(from) + " to " + TableIdentifierToString(to) + ". ";
    FLOE_ASSIGN_OR_RETURN(auto holder, KindAt(to));
    if (holder) return Status::AlreadyExists(what + KindName(*holder) + " already exists" + InCatalog());
    auto updated = Exec("UPDATE iceberg_tables SET table_namespace = ?4, table_name = ?5 "
                        "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3" +
                            Filter(kind),
                        {catalog_, from_ns, from.name, to_ns, to.name});
    if (updated.status().code() == StatusCode::kAlreadyExists) {
      return Status::AlreadyExists(what + KindName(kind) + " already exists" + InCatalog());
    }
    FLOE_RETURN_IF_ERROR(updated.status());
    if (updated->affected_rows != 1) return NotFound(from, kind);
    return txn.Commit();
  }


  // The compare and the swap are one statement: the database's row lock makes concurrent
  // swaps from the same `expected` serialize, and all but the first match no row.
  // (A NULL location, which other writers may leave, compares as "".) Runs inside the
  // caller's write transaction.
  Status SwapInTransaction(const SwapRequest& swap, Kind kind) {
    const std::string ns = NamespaceToString(swap.id.ns);
    FLOE_ASSIGN_OR_RETURN(
        auto updated,
        Exec("UPDATE iceberg_tables SET previous_metadata_location = metadata_location, metadata_location = ?5 "
             "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3 "
             "AND COALESCE(metadata_location, '') = ?4" +
                 Filter(kind),
             {catalog_, ns, swap.id.name, swap.expected, swap.next}));
    if (updated.affected_rows == 1) return Status::OK();
    if (updated.affected_rows > 1) {
      return Status::Internal("swap of " + Quoted(TableIdentifierToString(swap.id)) + " changed " +
                              std::to_string(updated.affected_rows) +
                              " rows: iceberg_tables has no primary key on (catalog_name, table_namespace, table_name)");
    }
    FLOE_ASSIGN_OR_RETURN(auto current, Exec("SELECT metadata_location FROM iceberg_tables "
                                             "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3" +
                                                 Filter(kind),
                                             {catalog_, ns, swap.id.name}));
    if (current.rows.empty()) return NotFound(swap.id, kind);
    return Status::Conflict(std::string(kind == Kind::kTable ? "table " : "view ") +
                            Quoted(TableIdentifierToString(swap.id)) +
                            " was changed by another commit: its metadata location is " +
                            Quoted(current.rows[0][0].value_or("")) + ", not the expected " + Quoted(swap.expected) +
                            "; reload and retry");
  }

  Result<SqlResult> Exec(const std::string& sql, const std::vector<std::string>& params) {
    return conn_->Execute(sql, params);
  }

  // Runs one read in its own transaction: OK if the statement prepares and runs.
  Status Probe(const std::string& sql) {
    Txn txn(*conn_);
    FLOE_RETURN_IF_ERROR(txn.Begin(TxnKind::kRead));
    FLOE_RETURN_IF_ERROR(Exec(sql, {}).status());
    return txn.Commit();
  }

  Result<bool> NamespaceExists(const std::string& name) {
    const std::string prefix = name + ".";
    FLOE_ASSIGN_OR_RETURN(auto rows,
                          Exec(kNamespaceExists, {catalog_, name, std::to_string(Utf8Length(prefix)), prefix}));
    return !rows.rows.empty();
  }

  // What holds the identifier: a table (also a row of another or no type), a view, or nothing.
  Result<std::optional<Kind>> KindAt(const TableIdentifier& id) {
    FLOE_ASSIGN_OR_RETURN(auto rows, Exec("SELECT " + std::string(table_type_column_.empty() ? "NULL" : "iceberg_type") +
                                              " FROM iceberg_tables "
                                              "WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3",
                                          {catalog_, NamespaceToString(id.ns), id.name}));
    if (rows.rows.empty()) return std::optional<Kind>();
    return std::optional<Kind>(rows.rows[0][0] && *rows.rows[0][0] == "VIEW" ? Kind::kView : Kind::kTable);
  }

  // kAlreadyExists, in Iceberg's words: "View already exists: ns.v" for the same kind,
  // "Table with same name already exists: ns.t" when a view would take a table's name.
  Status CheckNameFree(const TableIdentifier& id, Kind creating) {
    FLOE_ASSIGN_OR_RETURN(auto holder, KindAt(id));
    if (!holder) return Status::OK();
    if (*holder == creating) return Exists(id, creating);
    return Status::AlreadyExists(std::string(KindName(*holder)) + " with same name already exists: " +
                                 TableIdentifierToString(id) + InCatalog());
  }

  // The rows of one kind; rows of a v0 schema (no iceberg_type) are all tables.
  std::string Filter(Kind kind) const { return kind == Kind::kTable ? table_filter_ : " AND iceberg_type = 'VIEW'"; }
  Status ViewsSupported() const {
    if (!table_type_column_.empty()) return Status::OK();
    return Status::Unsupported("catalog " + Quoted(catalog_) +
                               ": its iceberg_tables has no iceberg_type column (an older JDBC catalog schema), "
                               "so it cannot hold views");
  }

  // Messages start as Iceberg's own catalogs word them ("Table does not exist: ns.t"), which
  // engines and Iceberg's compatibility kit match; Floe's context follows.
  std::string InCatalog() const { return " (in catalog " + Quoted(catalog_) + ", " + conn_->description() + ")"; }
  // Exactly Iceberg's message: clients (and the compatibility kit) compare it whole.
  Status NamespaceNotFound(const std::string& name) const {
    return Status::NotFound("Namespace does not exist: " + name);
  }
  Status NamespaceExistsError(const std::string& name) const {
    return Status::AlreadyExists("Namespace already exists: " + name + InCatalog());
  }
  Status NotFound(const TableIdentifier& id, Kind kind) const {
    return Status::NotFound(std::string(KindName(kind)) + " does not exist: " + TableIdentifierToString(id) +
                            InCatalog());
  }
  Status Exists(const TableIdentifier& id, Kind kind) const {
    return Status::AlreadyExists(std::string(KindName(kind)) + " already exists: " + TableIdentifierToString(id) +
                                 InCatalog());
  }

  std::mutex mu_;  // one connection, used by one call at a time
  std::unique_ptr<SqlConnection> conn_;
  const std::string catalog_;
  const std::string ddl_lock_key_;
  // Set by Init() for schemas with the iceberg_type column ("v1"); empty for "v0" ones.
  std::string table_filter_;
  std::string table_type_column_;
};

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

std::string RedactCatalogUri(const std::string& uri) {
  std::string out = uri;
  auto scheme_end = out.find("://");
  if (scheme_end != std::string::npos) {
    std::size_t authority = scheme_end + 3;
    std::size_t authority_end = out.find_first_of("/?", authority);
    if (authority_end == std::string::npos) authority_end = out.size();
    std::size_t at = out.rfind('@', authority_end - 1);
    if (at != std::string::npos && at >= authority) {
      std::size_t colon = out.find(':', authority);
      if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // libpq also takes password=... as a query parameter.
  for (std::size_t pos = out.find("password="); pos != std::string::npos; pos = out.find("password=", pos + 1)) {
    if (pos > 0 && out[pos - 1] != '?' && out[pos - 1] != '&' && out[pos - 1] != ' ') continue;
    std::size_t start = pos + 9;
    std::size_t end = out.find_first_of("& ", start);
    if (end == std::string::npos) end = out.size();
    out.replace(start, end - start, "***");
  }
  return out;
}

Result<std::unique_ptr<Catalog>> OpenSqlCatalog(const std::string& uri, const std::string& catalog_name,
                                                const SqlCatalogOptions& options) {
  FLOE_RETURN_IF_ERROR(ValidateCatalogName(catalog_name));
  std::unique_ptr<SqlConnection> conn;
  if (StartsWith(uri, "sqlite://")) {
    std::string path = uri.substr(9);
    if (path == ":memory:" || path == "/:memory:") {
      path = ":memory:";
    } else {
      if (path.empty() || path == "/") {
        return Status::InvalidArgument("catalog URI " + Quoted(uri) +
                                       " has no file path: write sqlite:///abs/path/catalog.db or sqlite://:memory:");
      }
      if (path.find('?') != std::string::npos) {
        return Status::InvalidArgument("catalog URI " + Quoted(uri) + ": sqlite URIs take no query parameters");
      }
      // sqlite:////abs/path (SQLAlchemy's spelling of an absolute path) is the same file.
      if (StartsWith(path, "//")) path.erase(0, 1);
    }
    FLOE_ASSIGN_OR_RETURN(conn, internal::OpenSqliteConnection(path, options));
  } else if (StartsWith(uri, "postgresql://") || StartsWith(uri, "postgres://")) {
    FLOE_ASSIGN_OR_RETURN(conn, internal::OpenPostgresConnection(uri, options));
  } else {
    return Status::InvalidArgument("unsupported catalog URI " + Quoted(RedactCatalogUri(uri)) +
                                   ": expected sqlite:///path/to/catalog.db, sqlite://:memory: or "
                                   "postgresql://user@host:port/database");
  }
  auto catalog = std::make_unique<SqlCatalog>(std::move(conn), catalog_name);
  FLOE_RETURN_IF_ERROR(catalog->Init().WithContext("opening catalog " + Quoted(catalog_name)));
  return std::unique_ptr<Catalog>(std::move(catalog));
}

}  // namespace floe::catalog
