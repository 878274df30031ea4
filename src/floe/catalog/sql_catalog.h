#pragma once
// The built-in SQL catalog: namespaces and table pointers in two SQL tables, the same ones
// (same names, columns and conventions) as Apache Iceberg's JDBC catalog and pyiceberg's
// SqlCatalog, so those can share one database with Floe. See docs/catalog.md.
//
//   sqlite:///abs/path/catalog.db   a SQLite file (created if missing; WAL mode). The
//                                   SQLAlchemy spelling sqlite:////abs/path/catalog.db works too.
//   sqlite://relative/catalog.db    relative to the working directory
//   sqlite://:memory:               private to this instance (tests)
//   postgresql://user:pw@host:port/db?sslmode=...   (also postgres://): libpq's URI syntax
//
// `catalog_name` scopes every row (column catalog_name), so several catalogs can share one
// database; pyiceberg's SqlCatalog(name, uri=...) uses its `name` the same way.
// The tables are created when missing; opening is safe from several processes at once.
#include <chrono>
#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

struct SqlCatalogOptions {
  // SQLite: how long a statement waits for another connection's write lock before the call
  // reports kUnavailable.
  std::chrono::milliseconds sqlite_busy_timeout{10'000};
  // PostgreSQL: connect timeout, unless the URI sets connect_timeout itself.
  std::chrono::seconds postgres_connect_timeout{10};
};

Result<std::unique_ptr<Catalog>> OpenSqlCatalog(const std::string& uri, const std::string& catalog_name,
                                                const SqlCatalogOptions& options = {});

// The URI with any password replaced by "***", for logs and messages.
std::string RedactCatalogUri(const std::string& uri);

}  // namespace floe::catalog
