// SQLite backend of the SQL catalog: one connection per catalog instance (the catalog's
// mutex serializes its use), WAL journal so readers never wait for the writer, a busy
// timeout for other processes' write locks, and IMMEDIATE write transactions so a writer
// takes the lock up front instead of failing when it upgrades a read lock.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>

#include "floe/catalog/sql_connection_internal.h"
#include "floe/storage/local_dirs.h"

namespace floe::catalog::internal {
namespace {

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path, const SqlCatalogOptions& options)
      : db_(db),
        path_(std::move(path)),
        description_(path_ == ":memory:" ? "in-memory SQLite catalog database"
                                         : "SQLite catalog database " + path_),
        busy_timeout_ms_(options.sqlite_busy_timeout.count()) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  Status Begin(TxnKind kind, std::string_view /*lock_key*/) override {
    if (sqlite3_get_autocommit(db_) == 0) return Status::Internal(description_ + ": transaction already open");
    // The IMMEDIATE write lock covers the whole database, so kSerializedWrite needs nothing more.
    auto r = Execute(kind == TxnKind::kRead ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE", {});
    return r.status();
  }

  Status Commit() override {
    auto r = Execute("COMMIT", {});
    if (!r.ok()) Rollback();  // COMMIT that failed (e.g. I/O error) may leave the transaction open
    return r.status();
  }

  void Rollback() override {
    if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }

  Result<SqlResult> Execute(std::string_view sql, const std::vector<std::string>& params) override {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) return Error(rc);
    struct Finalize {
      sqlite3_stmt* s;
      ~Finalize() { sqlite3_finalize(s); }
    } finalize{stmt};
    if (stmt == nullptr) return SqlResult{};  // empty statement
    if (sqlite3_bind_parameter_count(stmt) != static_cast<int>(params.size())) {
      return Status::Internal("catalog SQL expects " + std::to_string(sqlite3_bind_parameter_count(stmt)) +
                              " parameters, got " + std::to_string(params.size()) + ": " + std::string(sql));
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      rc = sqlite3_bind_text(stmt, static_cast<int>(i + 1), params[i].data(), static_cast<int>(params[i].size()),
                             SQLITE_TRANSIENT);
      if (rc != SQLITE_OK) return Error(rc);
    }
    SqlResult out;
    const int columns = sqlite3_column_count(stmt);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      auto& row = out.rows.emplace_back();
      row.reserve(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          row.emplace_back(std::nullopt);
        } else {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          row.emplace_back(std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
        }
      }
    }
    if (rc != SQLITE_DONE) return Error(rc);
    if (!sqlite3_stmt_readonly(stmt)) out.affected_rows = sqlite3_changes64(db_);
    return out;
  }

  const std::string& description() const override { return description_; }

  Status Error(int rc) const {
    std::string message = description_ + ": " + sqlite3_errmsg(db_);
    switch (rc & 0xFF) {
      case SQLITE_BUSY:
      case SQLITE_LOCKED:
        return Status::Unavailable(message + " (another connection held its write lock for longer than the " +
                                   std::to_string(busy_timeout_ms_) + " ms busy timeout)");
      case SQLITE_CONSTRAINT:
        if (rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_UNIQUE) {
          return Status::AlreadyExists(message);
        }
        return Status::Internal(message);
      case SQLITE_CANTOPEN:
      case SQLITE_IOERR:
      case SQLITE_FULL:
      case SQLITE_READONLY:
      case SQLITE_PERM:
      case SQLITE_CORRUPT:
      case SQLITE_NOTADB:
      case SQLITE_NOLFS:
      case SQLITE_PROTOCOL:
        return Status::IoError(message);
      default:
        return Status::Internal(message);
    }
  }

 private:
  sqlite3* db_;
  std::string path_;
  std::string description_;
  long long busy_timeout_ms_;
};

// Switching a new database file to WAL needs its exclusive lock, and SQLite answers BUSY at
// once, without the busy handler, while another process is doing the same switch (two Floe
// workers starting on one fresh catalog). So this one statement waits by itself.
Status SetJournalModeWal(SqlConnection& conn, long long busy_timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  for (auto pause = std::chrono::milliseconds(5);; pause = std::min(pause * 2, std::chrono::milliseconds(200))) {
    auto wal = conn.Execute("PRAGMA journal_mode=WAL", {});
    if (wal.ok() || wal.status().code() != StatusCode::kUnavailable ||
        std::chrono::steady_clock::now() + pause > deadline) {
      return wal.status();
    }
    std::this_thread::sleep_for(pause);
  }
}

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenSqliteConnection(const std::string& path, const SqlCatalogOptions& options) {
  // SQLite creates the database file but not its folder, and then says only "unable to open
  // database file": the default catalog, <warehouse>/catalog.db, would fail that way on a
  // warehouse that does not exist yet.
  if (path != ":memory:") {
    const std::string folder = std::filesystem::path(path).parent_path().string();
    if (!folder.empty()) {
      FLOE_RETURN_IF_ERROR(
          storage::EnsureWritableDirectory(
              folder, "its folder", "set `catalog.uri` in floe.yaml to sqlite:///<a folder floe may create>/catalog.db")
              .WithContext("opening the SQLite catalog database " + path));
    }
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return Status::IoError("cannot open SQLite catalog database " + path + ": " + message);
  }
  sqlite3_extended_result_codes(db, 1);
  auto busy_ms = options.sqlite_busy_timeout.count();
  sqlite3_busy_timeout(db, static_cast<int>(busy_ms > 0x7FFFFFFF ? 0x7FFFFFFF : busy_ms));
  auto conn = std::make_unique<SqliteConnection>(db, path, options);
  if (path != ":memory:") {
    // WAL: readers (LoadTable on every commit attempt, the REST server) never block the
    // writer nor each other. The mode is stored in the file, so this is a no-op after the
    // first open. A file system without shared memory support keeps the rollback journal,
    // which is slower under contention but just as correct.
    auto wal = SetJournalModeWal(*conn, busy_ms);
    if (!wal.ok()) return wal;
    // Durable commits: a swap that returned OK survives a power cut.
    auto sync = conn->Execute("PRAGMA synchronous=FULL", {});
    if (!sync.ok()) return sync.status();
  }
  return std::unique_ptr<SqlConnection>(std::move(conn));
}

}  // namespace floe::catalog::internal
