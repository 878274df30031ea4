#include "floe/catalog/rest_catalog_client.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

namespace floe::catalog {
namespace {

using nlohmann::json;
using rest::RequestKind;

std::string TableName(const TableIdentifier& id) { return TableIdentifierToString(id); }

Status CheckTableId(const TableIdentifier& id) {
  if (id.ns.empty()) return Status::InvalidArgument("table " + id.name + " has no namespace");
  if (id.name.empty()) return Status::InvalidArgument("table name is empty");
  return Status::OK();
}

Status CheckNamespace(const Namespace& ns) {
  if (ns.empty()) return Status::InvalidArgument("namespace is empty");
  for (const auto& level : ns) {
    if (level.empty()) return Status::InvalidArgument("namespace '" + NamespaceToString(ns) + "' has an empty level");
  }
  return Status::OK();
}

}  // namespace

Result<LoadedTable> RestCatalogClient::ParseTable(const TableIdentifier& id, const std::string& body,
                                                  std::string_view what) {
  auto parsed = rest::ParseLoadTableResult(body);
  if (!parsed.ok()) return parsed.status().WithContext(what);
  if (options_.vended_credentials && (!parsed->config.empty() || !parsed->storage_credentials.empty())) {
    // (A commit's answer carries neither: the access registered at the last load stays.)
    // Asked again through LoadTable (which every catalog has) when the credentials near expiry.
    Status delegated = storage::Delegate(this, rest::DelegatedStorageAccess(merged_, *parsed),
                                         [this, id] { return LoadTable(id).status(); });
    if (!delegated.ok()) return delegated.WithContext(what);
  }
  return LoadedTable{id, std::move(parsed->metadata_location), std::move(parsed->metadata)};
}

RestCatalogClient::~RestCatalogClient() { storage::RevokeDelegations(this); }

RestCatalogClient::RestCatalogClient(RestCatalogOptions options, std::unique_ptr<rest::HttpTransport> transport)
    : options_(std::move(options)), transport_(std::move(transport)), paths_(options_.uri, "") {}

Result<std::unique_ptr<RestCatalogClient>> RestCatalogClient::Open(RestCatalogOptions options,
                                                                   std::unique_ptr<rest::HttpTransport> transport) {
  if (options.uri.rfind("http://", 0) != 0 && options.uri.rfind("https://", 0) != 0) {
    return Status::InvalidArgument("REST catalog uri must start with http:// or https://, got '" + options.uri + "'");
  }
  if (!transport) transport = rest::MakeCurlTransport({options.connect_timeout, options.request_timeout});
  std::unique_ptr<RestCatalogClient> client(new RestCatalogClient(std::move(options), std::move(transport)));
  FLOE_RETURN_IF_ERROR(client->Initialize());
  return client;
}

Status RestCatalogClient::Initialize() {
  if (!options_.credential.empty()) {
    oauth_ = std::make_unique<rest::OAuth2ClientCredentials>(
        *transport_,
        options_.oauth2_server_uri.empty() ? rest::ResourcePaths::OAuthTokens(options_.uri) : options_.oauth2_server_uri,
        options_.credential, options_.scope, options_.clock);
    // Fetched before /v1/config, which a secured catalog already guards.
    FLOE_RETURN_IF_ERROR(oauth_->Token().status());
  } else {
    token_ = options_.token;
  }
  FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", rest::ResourcePaths::Config(options_.uri, options_.warehouse), "",
                                            RequestKind::kRead, "GET /v1/config from " + options_.uri));
  auto config = rest::ParseConfigResponse(response.body);
  if (!config.ok()) return config.status().WithContext(options_.uri);
  Properties client = options_.properties;
  client[std::string(rest::kPropUri)] = options_.uri;
  if (!options_.prefix.empty()) client[std::string(rest::kPropPrefix)] = options_.prefix;
  if (!options_.warehouse.empty()) client["warehouse"] = options_.warehouse;
  merged_ = rest::MergeConfig(*config, client);
  endpoints_ = config->endpoints;
  // The server may move the service (Iceberg's RESTSessionCatalog builds its client on the
  // merged "uri"); only an overrides entry can, since the client's own uri beats a default.
  const std::string uri = merged_[std::string(rest::kPropUri)];
  if (uri.rfind("http://", 0) != 0 && uri.rfind("https://", 0) != 0) {
    return Status::InvalidArgument("REST catalog " + options_.uri + ": /v1/config sets uri '" + uri +
                                   "', which is not http(s)://");
  }
  if (oauth_ && options_.oauth2_server_uri.empty()) {
    auto it = merged_.find(std::string(rest::kPropOAuth2ServerUri));
    oauth_->set_token_url(it != merged_.end() ? it->second : rest::ResourcePaths::OAuthTokens(uri));
  }
  paths_ = rest::ResourcePaths::FromConfig(uri, merged_);
  for (const auto& [key, value] : merged_) {
    if (key.rfind(rest::kPropHeaderPrefix, 0) == 0 && key.size() > rest::kPropHeaderPrefix.size()) {
      headers_.emplace_back(key.substr(rest::kPropHeaderPrefix.size()), value);
    }
  }
  if (options_.credential.empty() && options_.token.empty()) {
    if (auto it = merged_.find(std::string(rest::kPropToken)); it != merged_.end()) token_ = it->second;
  }
  if (options_.vended_credentials) {
    // Polaris and Unity vend credentials only to a client that asks with this header.
    headers_.emplace_back("X-Iceberg-Access-Delegation", "vended-credentials");
  }
  return Status::OK();
}

Result<rest::HttpResponse> RestCatalogClient::SendOnce(const std::string& method, const std::string& url,
                                                       const std::string& body, std::string& bearer) {
  rest::HttpRequest request;
  request.method = method;
  request.url = url;
  request.body = body;
  request.headers.emplace_back("Accept", "application/json");
  if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  if (oauth_) {
    // A failed refresh while the token still lives keeps it (TokenCache); none left is an error.
    FLOE_ASSIGN_OR_RETURN(bearer, oauth_->Token());
  } else {
    bearer = token_;
  }
  if (!bearer.empty()) request.headers.emplace_back("Authorization", "Bearer " + bearer);
  for (const auto& h : headers_) request.headers.push_back(h);
  if (options_.sigv4) {
    auto credentials = options_.aws_credentials ? options_.aws_credentials()
                                                : Result<storage::AwsCredentials>(Status::InvalidArgument(
                                                      "REST catalog: SigV4 signing without AWS credentials"));
    if (!credentials.ok()) return credentials.status().WithContext("REST catalog: SigV4 signing");
    storage::SignSigV4(method, url, body, *options_.sigv4, *credentials, std::chrono::system_clock::now(),
                       request.headers);
  }
  return transport_->Send(request);
}

Result<rest::HttpResponse> RestCatalogClient::Call(const std::string& method, const std::string& url,
                                                   const std::string& body, RequestKind kind, const std::string& what) {
  const bool idempotent = method == "GET" || method == "HEAD";
  const int attempts = idempotent ? std::max(1, options_.max_attempts) : 1;
  auto backoff = options_.initial_backoff;
  bool reauthenticated = false;
  for (int attempt = 1;; ++attempt) {
    std::string bearer;
    auto sent = SendOnce(method, url, body, bearer);
    if (!sent.ok()) return sent.status().WithContext(what);
    rest::HttpResponse response = std::move(sent).value();
    if (response.status >= 200 && response.status < 300) return response;
    // A 401 was refused before anything happened, so even a write may go again, once, with a
    // fresh token.
    if (response.status == 401 && oauth_ && !reauthenticated) {
      reauthenticated = true;
      oauth_->Refused(bearer);
      --attempt;
      continue;
    }
    const bool retryable = response.status == 0 || rest::IsRetryableHttpStatus(response.status);
    if (retryable && attempt < attempts) {
      std::this_thread::sleep_for(backoff);
      backoff = std::min(backoff * 2, options_.max_backoff);
      continue;
    }
    if (response.status == 0) {
      return rest::StatusFromTransportError(response.error, response.maybe_delivered, kind, what);
    }
    return rest::StatusFromHttpError(response.status, response.body, kind, what);
  }
}

// --- Namespaces -----------------------------------------------------------------------------------

Status RestCatalogClient::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(CheckNamespace(ns));
  json body = {{"namespace", json(ns)}, {"properties", json(properties)}};
  return Call("POST", paths_.Namespaces(), body.dump(), RequestKind::kCreate,
              "create of namespace " + NamespaceToString(ns))
      .status();
}

Result<std::vector<Namespace>> RestCatalogClient::ListNamespaces(const Namespace& parent) {
  std::vector<Namespace> out;
  std::string token;
  std::set<std::string> seen_tokens;
  do {
    FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", paths_.ListNamespaces(parent, token), "", RequestKind::kRead,
                                              "list of namespaces under '" + NamespaceToString(parent) + "'"));
    rest::Page page;
    FLOE_ASSIGN_OR_RETURN(auto list, rest::ParseListNamespaces(response.body, page));
    out.insert(out.end(), list.begin(), list.end());
    token = page.next_page_token;
    if (!token.empty() && !seen_tokens.insert(token).second) {
      return Status::Unavailable("REST catalog repeats the namespace page token '" + token + "'");
    }
  } while (!token.empty());
  std::sort(out.begin(), out.end());
  return out;
}

Result<Properties> RestCatalogClient::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", paths_.NamespaceUrl(ns), "", RequestKind::kRead,
                                            "load of namespace " + NamespaceToString(ns)));
  return rest::ParseNamespaceProperties(response.body);
}

Status RestCatalogClient::UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                                    const Properties& updates) {
  FLOE_RETURN_IF_ERROR(CheckNamespace(ns));
  for (const auto& key : removals) {
    if (updates.count(key)) return Status::InvalidArgument("property '" + key + "' is both updated and removed");
  }
  json body = {{"removals", json(removals)}, {"updates", json(updates)}};
  return Call("POST", paths_.NamespaceProperties(ns), body.dump(), RequestKind::kWrite,
              "update of namespace " + NamespaceToString(ns) + " properties")
      .status();
}

Status RestCatalogClient::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckNamespace(ns));
  return Call("DELETE", paths_.NamespaceUrl(ns), "", RequestKind::kWrite, "drop of namespace " + NamespaceToString(ns))
      .status();
}

// --- Tables ---------------------------------------------------------------------------------------

Result<std::vector<TableIdentifier>> RestCatalogClient::ListTables(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckNamespace(ns));
  std::vector<TableIdentifier> out;
  std::string token;
  std::set<std::string> seen_tokens;
  do {
    FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", paths_.ListTables(ns, token), "", RequestKind::kRead,
                                              "list of tables in " + NamespaceToString(ns)));
    rest::Page page;
    FLOE_ASSIGN_OR_RETURN(auto list, rest::ParseListTables(response.body, page));
    out.insert(out.end(), list.begin(), list.end());
    token = page.next_page_token;
    if (!token.empty() && !seen_tokens.insert(token).second) {
      return Status::Unavailable("REST catalog repeats the table page token '" + token + "'");
    }
  } while (!token.empty());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Result<LoadedTable> RestCatalogClient::LoadTable(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckTableId(id));
  const std::string what = "load of table " + TableName(id);
  FLOE_ASSIGN_OR_RETURN(auto response, Call("GET", paths_.Table(id), "", RequestKind::kRead, what));
  return ParseTable(id, response.body, what);
}

Result<LoadedTable> RestCatalogClient::CreateTable(const NewTable& table, bool stage_only) {
  FLOE_RETURN_IF_ERROR(CheckTableId(table.id));
  const std::string what = (stage_only ? "staged create of table " : "create of table ") + TableName(table.id);
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", paths_.Tables(table.id.ns),
                                            rest::CreateTableRequestJson(table, stage_only).dump(),
                                            RequestKind::kCreate, what));
  return ParseTable(table.id, response.body, what);
}

Result<LoadedTable> RestCatalogClient::CommitTable(const TableChange& change) {
  FLOE_RETURN_IF_ERROR(CheckTableId(change.id));
  const std::string what = "commit to table " + TableName(change.id);
  FLOE_ASSIGN_OR_RETURN(auto response, Call("POST", paths_.Table(change.id),
                                            rest::CommitTableRequestJson(change, /*with_identifier=*/true).dump(),
                                            RequestKind::kCommit, what));
  return ParseTable(change.id, response.body, what);
}

Status RestCatalogClient::CommitTransaction(const std::vector<TableChange>& changes) {
  if (changes.empty()) return Status::OK();
  std::set<TableIdentifier> seen;
  for (const auto& c : changes) {
    FLOE_RETURN_IF_ERROR(CheckTableId(c.id));
    if (!seen.insert(c.id).second) return Status::InvalidArgument("a transaction may change each table once");
  }
  return Call("POST", paths_.TransactionCommit(), rest::CommitTransactionRequestJson(changes).dump(),
              RequestKind::kCommit, "transaction over " + std::to_string(changes.size()) + " tables")
      .status();
}

Status RestCatalogClient::DropTable(const TableIdentifier& id, bool purge) {
  FLOE_RETURN_IF_ERROR(CheckTableId(id));
  return Call("DELETE", paths_.DropTable(id, purge), "", RequestKind::kWrite, "drop of table " + TableName(id))
      .status();
}

Status RestCatalogClient::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(CheckTableId(from));
  FLOE_RETURN_IF_ERROR(CheckTableId(to));
  json body = {{"source", rest::TableIdentifierJson(from)}, {"destination", rest::TableIdentifierJson(to)}};
  return Call("POST", paths_.Rename(), body.dump(), RequestKind::kCreate,
              "rename of table " + TableName(from) + " to " + TableName(to))
      .status();
}

Result<LoadedTable> RestCatalogClient::RegisterTable(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(CheckTableId(id));
  const std::string what = "register of table " + TableName(id);
  json body = {{"name", id.name}, {"metadata-location", metadata_location}};
  FLOE_ASSIGN_OR_RETURN(auto response,
                        Call("POST", paths_.Register(id.ns), body.dump(), RequestKind::kCreate, what));
  return ParseTable(id, response.body, what);
}

// --- From floe.yaml --------------------------------------------------------------------------------

Result<RestCatalogOptions> RestCatalogOptionsFromConfig(const FloeConfig& config) {
  const CatalogConfig& c = config.catalog;
  RestCatalogOptions options;
  options.uri = c.uri;
  options.token = c.token;
  options.credential = c.credential;
  options.oauth2_server_uri = c.oauth2_server_uri;
  options.scope = c.scope;
  options.warehouse = c.warehouse.empty() ? config.warehouse : c.warehouse;
  options.vended_credentials = c.access_delegation == "vended-credentials";
  if (c.sigv4) {
    // storage.s3's chain (static keys, the default chain, an assumed role), as Glue uses it.
    S3StorageConfig chain = config.storage.s3 ? *config.storage.s3 : S3StorageConfig{};
    if (!c.sigv4->region.empty()) chain.region = c.sigv4->region;
    auto source = storage::AwsCredentialSource::Make(chain);
    if (!source.ok()) return source.status().WithContext("catalog.sigv4");
    std::shared_ptr<storage::AwsCredentialSource> credentials = *source;
    if (credentials->region().empty()) {
      return Status::InvalidArgument("catalog.sigv4.region: no region configured and none found in the AWS chain "
                                     "(AWS_REGION)");
    }
    options.sigv4 = storage::SigV4Scope{credentials->region(), c.sigv4->service};
    options.aws_credentials = [credentials] { return credentials->Current(); };
  }
  return options;
}

}  // namespace floe::catalog
