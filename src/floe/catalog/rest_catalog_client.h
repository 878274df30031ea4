#pragma once
// The Iceberg REST catalog client (catalog.type: rest): a TableCatalog over an external REST
// catalog server (Polaris, Lakekeeper, Unity, Glue's REST endpoint, Iceberg's own, or Floe's
// `floe catalog serve`). The server owns the metadata files: create, commit (requirements +
// updates, applied by the server) and multi-table transactions are requests, and every answer
// carries the table's metadata, parsed with Floe's Iceberg model. See docs/rest-catalog-client.md.
//
// Open() first asks GET /v1/config (?warehouse=… when configured) and merges the answer as the
// spec says (server defaults < client properties < server overrides); the merged "prefix" and
// "namespace-separator" shape every path, "header.*" become request headers, and an "uri"
// the server sets (as Iceberg's RESTSessionCatalog honours it) becomes the base of every later
// request.
//
// Auth: a static bearer token, or OAuth2 client credentials (rest_client_auth.h: credential
// "id:secret", POSTed to oauth2_server_uri, default <uri>/v1/oauth/tokens; the token is fetched
// again before it expires and once after a 401). Independently, every catalog request (not the
// token requests) can be SigV4-signed (storage/aws_sigv4.h) for Glue's and S3 Tables' Iceberg
// endpoints or API Gateway; a bearer token then travels as Original-Authorization, as with
// Iceberg's RESTSigV4AuthSession.
//
// Errors (rest_client_protocol.h has the full table): 404 kNotFound; 409 kConflict for commits
// (reload and retry) and drops, kAlreadyExists for creates/renames/registers; 400/422
// kInvalidArgument; 401/403 kUnavailable "not authorized"; 5xx and transport failures
// kUnavailable — for a commit 500/502/504 and a request lost after sending mean "commit state
// unknown": reload the table and check whether the change landed before retrying. Only GET and
// HEAD are retried (with exponential backoff); writes are never resent by the client.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/catalog/rest_client_auth.h"
#include "floe/catalog/rest_client_http.h"
#include "floe/catalog/rest_client_protocol.h"
#include "floe/storage/aws_credentials.h"
#include "floe/storage/aws_sigv4.h"

namespace floe::catalog {

struct RestCatalogOptions {
  std::string uri;        // http(s)://host:port[/base/path]; /v1/… is appended
  std::string warehouse;  // sent as /v1/config?warehouse=…; empty: not sent
  std::string prefix;     // a client-side prefix; the server's overrides.prefix wins
  std::string token;      // static bearer token
  std::string credential;         // OAuth2 client credentials "client_id:client_secret" (or just "secret")
  // Empty: <uri>/v1/oauth/tokens, after /v1/config its oauth2-server-uri or the moved uri's.
  std::string oauth2_server_uri;
  std::string scope = "catalog";  // OAuth2 scope (Polaris wants "PRINCIPAL_ROLE:ALL")
  storage::TokenCache::Clock clock;  // tests: the OAuth2 token clock; empty: system_clock::now
  // SigV4: sign every catalog request for this region and service with these credentials.
  std::optional<storage::SigV4Scope> sigv4;
  std::function<Result<storage::AwsCredentials>()> aws_credentials;
  Properties properties;          // other client properties, merged with the server's config
  // Access delegation: ask for vended credentials (X-Iceberg-Access-Delegation) and read and
  // write each table's files with the storage settings and credentials its LoadTable answer
  // carries (storage/delegated_access.h), asked for again before they expire.
  bool vended_credentials = false;
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
  ~RestCatalogClient() override;  // revokes the storage access its tables delegated

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
  // A LoadTableResult (load, create, commit, register answers); with vended_credentials, its
  // storage access is registered for the table's files.
  Result<LoadedTable> ParseTable(const TableIdentifier& id, const std::string& body, std::string_view what);
  // Sends with auth and the configured headers; GET/HEAD retried with backoff. Returns the
  // 2xx answer, or the Status for anything else (mapped by `kind`, described by `what`).
  Result<rest::HttpResponse> Call(const std::string& method, const std::string& url, const std::string& body,
                                  rest::RequestKind kind, const std::string& what);
  // One exchange; `bearer` is set to the token it carried (for a 401's Refused).
  Result<rest::HttpResponse> SendOnce(const std::string& method, const std::string& url, const std::string& body,
                                      std::string& bearer);

  RestCatalogOptions options_;
  std::unique_ptr<rest::HttpTransport> transport_;
  std::unique_ptr<rest::OAuth2ClientCredentials> oauth_;  // with a credential only
  std::string token_;  // static bearer token (options or the config's "token"); set before sharing
  Properties merged_;
  rest::ResourcePaths paths_;
  std::vector<std::string> endpoints_;
  std::vector<std::pair<std::string, std::string>> headers_;  // from header.* properties
};

// RestCatalogOptions from floe.yaml's catalog section (type rest; docs/rest-catalog-client.md):
// uri, token or credential/oauth2_server_uri/scope, warehouse (catalog.warehouse, else the
// top-level warehouse), sigv4 with the AWS credentials of storage.s3's chain.
Result<RestCatalogOptions> RestCatalogOptionsFromConfig(const FloeConfig& config);

}  // namespace floe::catalog
