#pragma once
// The Iceberg REST catalog client (catalog.type: rest): a TableCatalog over an external REST
// catalog server (Polaris, Lakekeeper, Unity, Glue's REST endpoint, Iceberg's own, or Floe's
// `floe catalog serve`). The server owns the metadata files: create, commit (requirements +
// updates, applied by the server) and multi-table transactions are requests, and every answer
// carries the table's metadata, parsed with Floe's Iceberg model. See docs/rest-catalog-client.md.
//
// Open() first asks GET /v1/config (?warehouse=… when configured) and merges the answer as the
// spec says (server defaults < client properties < server overrides); the merged "prefix" and
// "namespace-separator" shape every path, "header.*" become request headers.
//
// Auth: a static bearer token, or OAuth2 client credentials (credential "id:secret", POSTed to
// oauth2_server_uri, default <uri>/v1/oauth/tokens); the token is fetched again before it
// expires and once after a 401.
//
// Errors (rest_client_protocol.h has the full table): 404 kNotFound; 409 kConflict for commits
// (reload and retry) and drops, kAlreadyExists for creates/renames/registers; 400/422
// kInvalidArgument; 401/403 kUnavailable "not authorized"; 5xx and transport failures
// kUnavailable — for a commit 500/502/504 and a request lost after sending mean "commit state
// unknown": reload the table and check whether the change landed before retrying. Only GET and
// HEAD are retried (with exponential backoff); writes are never resent by the client.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/catalog/rest_client_http.h"
#include "floe/catalog/rest_client_protocol.h"

namespace floe::catalog {

struct RestCatalogOptions {
  std::string uri;        // http(s)://host:port[/base/path]; /v1/… is appended
  std::string warehouse;  // sent as /v1/config?warehouse=…; empty: not sent
  std::string prefix;     // a client-side prefix; the server's overrides.prefix wins
  std::string token;      // static bearer token
  std::string credential;         // OAuth2 client credentials "client_id:client_secret" (or just "secret")
  std::string oauth2_server_uri;  // empty: <uri>/v1/oauth/tokens
  std::string scope = "catalog";  // OAuth2 scope (Polaris wants "PRINCIPAL_ROLE:ALL")
  Properties properties;          // other client properties, merged with the server's config
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds request_timeout{60'000};
  int max_attempts = 4;  // GET/HEAD only
  std::chrono::milliseconds initial_backoff{200};
  std::chrono::milliseconds max_backoff{5'000};
};

class RestCatalogClient final : public TableCatalog {
 public:
  // transport: nullptr for libcurl (tests pass a fake).
  static Result<std::unique_ptr<RestCatalogClient>> Open(RestCatalogOptions options,
                                                         std::unique_ptr<rest::HttpTransport> transport = nullptr);

  // The merged configuration and the paths built from it.
  const Properties& properties() const { return merged_; }
  const rest::ResourcePaths& paths() const { return paths_; }
  const std::vector<std::string>& endpoints() const { return endpoints_; }

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const Properties& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  Result<LoadedTable> CreateTable(const NewTable& table, bool stage_only = false) override;
  Result<LoadedTable> CommitTable(const TableChange& change) override;
  Status CommitTransaction(const std::vector<TableChange>& changes) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) override;

 private:
  RestCatalogClient(RestCatalogOptions options, std::unique_ptr<rest::HttpTransport> transport);
  Status Initialize();
  Status FetchToken();
  // Sends with auth and the configured headers; GET/HEAD retried with backoff. Returns the
  // 2xx answer, or the Status for anything else (mapped by `kind`, described by `what`).
  Result<rest::HttpResponse> Call(const std::string& method, const std::string& url, const std::string& body,
                                  rest::RequestKind kind, const std::string& what);
  rest::HttpResponse SendOnce(const std::string& method, const std::string& url, const std::string& body,
                              const std::string& content_type);
  std::string AuthorizationHeader();

  RestCatalogOptions options_;
  std::unique_ptr<rest::HttpTransport> transport_;
  Properties merged_;
  rest::ResourcePaths paths_;
  std::vector<std::string> endpoints_;
  std::vector<std::pair<std::string, std::string>> headers_;  // from header.* properties

  std::mutex token_mu_;
  std::string token_;  // guarded by token_mu_
  std::chrono::steady_clock::time_point token_refresh_at_ = std::chrono::steady_clock::time_point::max();
};

}  // namespace floe::catalog
