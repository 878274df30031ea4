#pragma once
// The pure parts of the Iceberg REST catalog client (rest_catalog_client.h): URL and namespace
// encoding, the /v1/config merge, resource paths, request bodies, response parsing and the
// mapping of HTTP errors (ErrorModel bodies) to Status codes. No I/O here, so all of it is
// unit-tested without a server. Spec: open-api/rest-catalog-open-api.yaml of Apache Iceberg.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/catalog/iceberg_catalog.h"
#include "floe/storage/delegated_access.h"
#include "floe/core/result.h"

namespace floe::catalog::rest {

// The multi-level namespace separator in paths, URL-encoded (the spec's 0x1F). A server may
// announce another one with the config property "namespace-separator" (Iceberg's own test
// server says "%2E": its Jetty rejects %1F in paths); it is used as given, already encoded.
inline constexpr std::string_view kDefaultNamespaceSeparator = "%1F";
inline constexpr std::string_view kPropPrefix = "prefix";
inline constexpr std::string_view kPropNamespaceSeparator = "namespace-separator";
inline constexpr std::string_view kPropToken = "token";
inline constexpr std::string_view kPropUri = "uri";  // a server override moves the service
inline constexpr std::string_view kPropOAuth2ServerUri = "oauth2-server-uri";
inline constexpr std::string_view kPropHeaderPrefix = "header.";  // header.X-Foo=bar -> "X-Foo: bar"

// Names are percent-encoded with core/percent_encoding.h (all but RFC 3986's unreserved).
// Namespace as a path segment: each level percent-encoded, joined with `separator` (used as is).
std::string EncodeNamespacePath(const Namespace& ns, std::string_view separator = kDefaultNamespaceSeparator);
// Namespace as a query parameter value (?parent=): levels joined with 0x1F, then percent-encoded.
std::string EncodeNamespaceQuery(const Namespace& ns);
// "application/x-www-form-urlencoded" body from ordered pairs (OAuth2 token requests).
std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields);

// --- GET /v1/config ---------------------------------------------------------------------------

struct ServerConfig {
  Properties defaults;
  Properties overrides;
  std::vector<std::string> endpoints;  // "METHOD /v1/{prefix}/…"; empty when the server sent none
};

// The CatalogConfig body. Non-string values in defaults/overrides are kept as their JSON text.
Result<ServerConfig> ParseConfigResponse(std::string_view body);
// The spec's merge: server defaults, then the client's own properties, then server overrides
// (each later one wins).
Properties MergeConfig(const ServerConfig& server, const Properties& client);

// --- Resource paths ---------------------------------------------------------------------------

// Full URLs of the REST resources, from the base URI and the merged configuration.
class ResourcePaths {
 public:
  // base_uri: "http://host:port" or with a path ("http://host/api/catalog"); trailing '/' dropped.
  // prefix: merged "prefix" ("" for none; slashes at its ends dropped); separator: see above.
  ResourcePaths(std::string_view base_uri, std::string_view prefix,
                std::string_view separator = kDefaultNamespaceSeparator);
  static ResourcePaths FromConfig(std::string_view base_uri, const Properties& merged);

  // GET /v1/config: never under a prefix; `warehouse` becomes ?warehouse=… when not empty.
  static std::string Config(std::string_view base_uri, std::string_view warehouse);
  // POST /v1/oauth/tokens (deprecated in the spec, but what servers without an IdP offer).
  static std::string OAuthTokens(std::string_view base_uri);

  std::string Namespaces() const;  // …/v1/{prefix}/namespaces
  std::string ListNamespaces(const Namespace& parent, std::string_view page_token) const;
  std::string NamespaceUrl(const Namespace& ns) const;
  std::string NamespaceProperties(const Namespace& ns) const;
  std::string Tables(const Namespace& ns) const;
  std::string ListTables(const Namespace& ns, std::string_view page_token) const;
  std::string Table(const TableIdentifier& id) const;
  std::string DropTable(const TableIdentifier& id, bool purge) const;
  std::string Register(const Namespace& ns) const;
  std::string Rename() const;
  std::string TransactionCommit() const;

  const std::string& base() const { return base_; }
  const std::string& prefix() const { return prefix_; }
  const std::string& separator() const { return separator_; }

 private:
  std::string Root() const;  // base/v1 or base/v1/prefix
  std::string base_;
  std::string prefix_;
  std::string separator_;
};

// --- Errors -------------------------------------------------------------------------------------

// What a request does: decides how 409 and the 5xx codes read.
enum class RequestKind {
  kRead,    // GET/HEAD: idempotent, retried
  kCreate,  // create namespace/table, register, rename: 409 -> kAlreadyExists
  kCommit,  // table commit, multi-table transaction: 409 -> kConflict; 500/502/504 -> outcome unknown
  kWrite,   // other writes (properties, drops): 409 -> kConflict
};

struct ErrorModel {
  std::string message;
  std::string type;  // "NoSuchTableException", "CommitFailedException", …
  int code = 0;
};

// The {"error": {"message", "type", "code"}} body; nullopt when the body is something else.
std::optional<ErrorModel> ParseErrorModel(std::string_view body);

// A non-2xx HTTP answer as a Status. `what` names the operation for the message ("commit of
// db.t", "load of namespace db"):
//   400, 422 -> kInvalidArgument    401, 403, 419 -> kUnavailable ("not authorized …")
//   404 -> kNotFound                406, 501 -> kUnsupported
//   409 -> kAlreadyExists (kCreate) or kConflict
//   anything else (429, 5xx, …) -> kUnavailable; for kCommit a 500/502/504 (any 5xx but 501 and
//   503, which say the commit was not attempted) has a message saying the commit state is
//   unknown and that the table must be reloaded and checked before retrying.
Status StatusFromHttpError(long http_status, std::string_view body, RequestKind kind, std::string_view what);
// A request that got no HTTP answer (connection refused, timeout, reset). `maybe_delivered`:
// the request may have reached the server, which for kCommit means the outcome is unknown.
Status StatusFromTransportError(std::string_view error, bool maybe_delivered, RequestKind kind,
                                std::string_view what);
// Worth another attempt for an idempotent request: 408, 429, 500, 502, 503, 504.
bool IsRetryableHttpStatus(long http_status);

// --- Bodies -------------------------------------------------------------------------------------

// CreateTableRequest: name, schema, partition-spec, write-order, location, properties, stage-create.
nlohmann::json CreateTableRequestJson(const NewTable& table, bool stage_only);
// CommitTableRequest; with_identifier for the entries of a CommitTransactionRequest.
nlohmann::json CommitTableRequestJson(const TableChange& change, bool with_identifier);
nlohmann::json CommitTransactionRequestJson(const std::vector<TableChange>& changes);
nlohmann::json TableIdentifierJson(const TableIdentifier& id);

struct StorageCredential {
  std::string prefix;  // the location the credentials are for (s3://bucket/path)
  Properties config;   // FileIO properties: s3.access-key-id, s3.session-token, …
};

struct LoadTableResult {
  std::string metadata_location;  // empty for a staged create
  iceberg::TableMetadata metadata;
  Properties config;  // table-level client config (e.g. storage credentials)
  std::vector<StorageCredential> storage_credentials;  // "storage-credentials" (vended, per prefix)
};
// LoadTableResult / CommitTableResponse.
Result<LoadTableResult> ParseLoadTableResult(std::string_view body);

// The storage access a LoadTable answer delegates (Iceberg's S3FileIO semantics): the
// catalog's merged properties under the table's config apply to the table's location, each
// storage-credentials entry (its config on top of both) to its prefix. What storage/ honours is
// filtered there (delegated_access.h).
std::vector<storage::DelegatedAccess> DelegatedStorageAccess(const Properties& catalog, const LoadTableResult& table);

struct Page {
  std::string next_page_token;  // empty: last page
};
// ListNamespacesResponse: {"namespaces": [["a"], ["a","b"]], "next-page-token": …}
Result<std::vector<Namespace>> ParseListNamespaces(std::string_view body, Page& page);
// ListTablesResponse: {"identifiers": [{"namespace": [...], "name": "t"}], "next-page-token": …}
Result<std::vector<TableIdentifier>> ParseListTables(std::string_view body, Page& page);
// GetNamespaceResponse: {"namespace": [...], "properties": {...}}
Result<Properties> ParseNamespaceProperties(std::string_view body);

struct OAuthToken {
  std::string access_token;
  std::optional<long> expires_in_seconds;
};
// OAuthTokenResponse (expires_in a number, or a string of one, as some servers send it); an
// OAuthError body ({"error": "invalid_client", …}) is kUnavailable. Messages never quote a
// successful answer's body, which may hold a token under another name.
Result<OAuthToken> ParseOAuthTokenResponse(long http_status, std::string_view body);

}  // namespace floe::catalog::rest
