// PostgreSQL backend of the SQL catalog (libpq): one connection per catalog instance, used
// under the catalog's mutex. A connection that breaks is dropped; the next transaction
// connects again, so a server restart costs the calls made while it was down, nothing more.
#include <libpq-fe.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "floe/catalog/sql_connection_internal.h"

namespace floe::catalog::internal {
namespace {

// pg_advisory_xact_lock(key1, key2): key1 says "Floe catalog", key2 is a hash of the scope.
constexpr std::int32_t kAdvisoryLockSpace = 0x466C6F65;  // "Floe"

std::int32_t Fnv1a32(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return static_cast<std::int32_t>(h);
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// ?1 -> $1. The catalog's SQL has no '?' or '$' anywhere else.
std::string ToDollarPlaceholders(std::string_view sql) {
  std::string out(sql);
  for (char& c : out) {
    if (c == '?') c = '$';
  }
  return out;
}

void IgnoreNotice(void*, const char*) {}

class PostgresConnection final : public SqlConnection {
 public:
  PostgresConnection(std::string uri, const SqlCatalogOptions& options)
      : uri_(std::move(uri)),
        description_("PostgreSQL catalog database " + RedactCatalogUri(uri_)),
        connect_timeout_(std::to_string(options.postgres_connect_timeout.count())) {}
  ~PostgresConnection() override { Drop(); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  Status Connect() {
    Drop();
    // Later keywords win, so the URI's own connect_timeout / application_name override these.
    const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
    const char* values[] = {connect_timeout_.c_str(), "floe-catalog", uri_.c_str(), nullptr};
    PGconn* c = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
    if (c == nullptr) return Status::Unavailable("cannot connect to " + description_ + ": out of memory");
    if (PQstatus(c) != CONNECTION_OK) {
      std::string message = Trim(PQerrorMessage(c));
      PQfinish(c);
      return Status::Unavailable("cannot connect to " + description_ + ": " + message);
    }
    PQsetNoticeProcessor(c, IgnoreNotice, nullptr);  // "relation already exists, skipping" etc.
    if (PQserverVersion(c) < 90500) {
      int version = PQserverVersion(c);
      PQfinish(c);
      return Status::Unsupported(description_ + " runs PostgreSQL server version " + std::to_string(version) +
                                 "; the catalog needs 9.5 or newer (INSERT ... ON CONFLICT)");
    }
    conn_ = c;
    // A swap that returned OK must survive a server crash: the commit protocol builds on it.
    // synchronous_commit=off (a server default some set for speed) acknowledges commits
    // before their WAL is flushed, so this session turns it back on; any stronger setting
    // (remote_write, remote_apply) is left as it is.
    auto sync = Run("SHOW synchronous_commit", {});
    if (sync.ok() && !sync->rows.empty() && sync->rows[0][0] == "off") sync = Run("SET synchronous_commit TO on", {});
    if (!sync.ok()) {
      Drop();
      return sync.status().WithContext("setting up the connection");
    }
    return Status::OK();
  }

  Status Begin(TxnKind kind, std::string_view lock_key) override {
    if (in_txn_) return Status::Internal(description_ + ": transaction already open");
    const char* begin = kind == TxnKind::kRead ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN";
    bool fresh = false;
    if (conn_ == nullptr) {
      FLOE_RETURN_IF_ERROR(Connect());
      fresh = true;
    }
    auto r = Run(begin, {});
    if (!r.ok() && conn_ == nullptr && !fresh) {
      // The connection broke while idle (server restart, idle timeout, terminated backend).
      // Nothing of this transaction has run, so connecting again and retrying is safe.
      FLOE_RETURN_IF_ERROR(Connect());
      r = Run(begin, {});
    }
    FLOE_RETURN_IF_ERROR(r.status());
    in_txn_ = true;
    if (kind == TxnKind::kSerializedWrite) {
      auto lock = Run("SELECT pg_advisory_xact_lock(CAST($1 AS INTEGER), CAST($2 AS INTEGER))",
                      {std::to_string(kAdvisoryLockSpace), std::to_string(Fnv1a32(lock_key))});
      if (!lock.ok()) {
        Rollback();
        return lock.status();
      }
    }
    return Status::OK();
  }

  Status Commit() override {
    if (!in_txn_) return Status::Internal(description_ + ": COMMIT without a transaction");
    in_txn_ = false;
    if (conn_ == nullptr) {
      return Status::Unavailable("lost the connection to " + description_ + " during the transaction");
    }
    auto r = Run("COMMIT", {});
    if (!r.ok() && conn_ == nullptr) {
      return Status::Unavailable(r.status().message() +
                                 "; the connection broke during COMMIT, so whether the transaction was committed "
                                 "is unknown");
    }
    return r.status();
  }

  void Rollback() override {
    if (!in_txn_) return;
    in_txn_ = false;
    if (conn_ != nullptr) (void)Run("ROLLBACK", {});
  }

  Result<SqlResult> Execute(std::string_view sql, const std::vector<std::string>& params) override {
    if (conn_ == nullptr) {
      return Status::Unavailable(in_txn_ ? "lost the connection to " + description_ + " during the transaction"
                                         : "not connected to " + description_);
    }
    return Run(ToDollarPlaceholders(sql), params);
  }

  const std::string& description() const override { return description_; }

 private:
  void Drop() {
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = nullptr;
  }

  Result<SqlResult> Run(const std::string& sql, const std::vector<std::string>& params) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(p.c_str());
    PGresult* res = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                 nullptr, nullptr, /*resultFormat=text*/ 0);
    struct Clear {
      PGresult* r;
      ~Clear() { PQclear(r); }
    } clear{res};
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
      SqlResult out;
      const int rows = PQntuples(res), cols = PQnfields(res);
      out.rows.reserve(static_cast<std::size_t>(rows));
      for (int r = 0; r < rows; ++r) {
        auto& row = out.rows.emplace_back();
        for (int c = 0; c < cols; ++c) {
          if (PQgetisnull(res, r, c)) {
            row.emplace_back(std::nullopt);
          } else {
            row.emplace_back(std::string(PQgetvalue(res, r, c), static_cast<std::size_t>(PQgetlength(res, r, c))));
          }
        }
      }
      const char* tuples = PQcmdTuples(res);
      out.affected_rows = (tuples && *tuples) ? std::strtoll(tuples, nullptr, 10) : 0;
      return out;
    }
    return Error(res);
  }

  Status Error(PGresult* res) {
    if (PQstatus(conn_) == CONNECTION_BAD) {
      std::string message = Trim(res ? PQresultErrorMessage(res) : PQerrorMessage(conn_));
      if (message.empty()) message = Trim(PQerrorMessage(conn_));
      Drop();
      return Status::Unavailable("lost the connection to " + description_ + ": " + message +
                                 " (the next call connects again)");
    }
    const char* sqlstate_c = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    std::string sqlstate = sqlstate_c ? sqlstate_c : "";
    const char* primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    std::string message = description_ + ": " + (primary ? std::string(primary) : Trim(PQerrorMessage(conn_)));
    if (!sqlstate.empty()) message += " (SQLSTATE " + sqlstate + ")";
    std::string cls = sqlstate.substr(0, 2);
    if (sqlstate == "23505") return Status::AlreadyExists(message);
    if (cls == "08") {  // connection exception
      Drop();
      return Status::Unavailable(message + " (the next call connects again)");
    }
    // Serialization failure, deadlock, out of resources, shutdown / cancel, system errors:
    // transient, the caller retries.
    if (sqlstate == "40001" || sqlstate == "40P01" || cls == "53" || cls == "57" || cls == "58") {
      return Status::Unavailable(message);
    }
    if (cls == "22") return Status::InvalidArgument(message);  // data exception: bad encoding, too long
    return Status::Internal(message);
  }

  std::string uri_;
  std::string description_;
  std::string connect_timeout_;
  PGconn* conn_ = nullptr;
  bool in_txn_ = false;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenPostgresConnection(const std::string& uri,
                                                              const SqlCatalogOptions& options) {
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(uri.c_str(), &parse_error);
  if (parsed == nullptr) {
    std::string message = parse_error ? Trim(parse_error) : "out of memory";
    PQfreemem(parse_error);
    return Status::InvalidArgument("invalid PostgreSQL catalog URI " + RedactCatalogUri(uri) + ": " + message);
  }
  PQconninfoFree(parsed);
  auto conn = std::make_unique<PostgresConnection>(uri, options);
  FLOE_RETURN_IF_ERROR(conn->Connect());
  return std::unique_ptr<SqlConnection>(std::move(conn));
}

}  // namespace floe::catalog::internal
