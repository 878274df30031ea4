#pragma once
// Internal to the catalog module: the little the SQL catalog needs from a database, so its
// logic (sql_catalog.cc) is written once for SQLite and PostgreSQL.
//
// SQL text uses numbered placeholders only (?1, ?2, ...): SQLite takes them as they are and
// the PostgreSQL connection turns them into $1, $2. Every parameter is bound as text; the SQL
// casts where a type matters. Names are always parameters, never part of the SQL text.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/sql_catalog.h"
#include "floe/core/result.h"

namespace floe::catalog::internal {

struct SqlResult {
  std::vector<std::vector<std::optional<std::string>>> rows;  // nullopt = SQL NULL
  std::int64_t affected_rows = 0;                             // INSERT/UPDATE/DELETE
};

enum class TxnKind {
  kRead,   // consistent reads (SQLite: deferred; PostgreSQL: REPEATABLE READ READ ONLY)
  kWrite,  // one atomic write (SQLite: IMMEDIATE, so the write lock is taken up front)
  // A write that checks names first (create, rename, drop namespace): serialized per
  // lock_key among Floe processes (PostgreSQL: an advisory transaction lock; SQLite's
  // IMMEDIATE write lock already serializes all writers).
  kSerializedWrite,
};

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  // Starts a transaction. Connects first if needed: a connection found broken here is
  // replaced once, since nothing of this transaction has run yet.
  virtual Status Begin(TxnKind kind, std::string_view lock_key) = 0;
  virtual Status Commit() = 0;
  virtual void Rollback() = 0;  // best effort; also after a failed statement

  // One statement. A unique-key violation is kAlreadyExists, a lost connection or a lock
  // that was not released in time kUnavailable.
  virtual Result<SqlResult> Execute(std::string_view sql, const std::vector<std::string>& params) = 0;

  // For messages: "SQLite catalog database /x/catalog.db", "PostgreSQL catalog database
  // postgresql://u@h:5432/db" (never a password).
  virtual const std::string& description() const = 0;
};

// path: a file path or ":memory:".
Result<std::unique_ptr<SqlConnection>> OpenSqliteConnection(const std::string& path, const SqlCatalogOptions& options);
// uri: postgresql://... or postgres://..., passed to libpq.
Result<std::unique_ptr<SqlConnection>> OpenPostgresConnection(const std::string& uri,
                                                              const SqlCatalogOptions& options);

}  // namespace floe::catalog::internal
