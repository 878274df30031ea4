#include "floe/catalog/rest_client_protocol.h"

#include <cstdlib>

#include "floe/core/percent_encoding.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/schema/json.h"

namespace floe::catalog::rest {
namespace {

using nlohmann::json;

constexpr char kQuerySeparator = '\x1f';
[[maybe_unused]] constexpr std::size_t kMaxPages = 100'000;  // a server that never stops paging is broken

std::string TrimSlashes(std::string_view s, bool leading) {
  while (!s.empty() && s.back() == '/') s.remove_suffix(1);
  while (leading && !s.empty() && s.front() == '/') s.remove_prefix(1);
  return std::string(s);
}

Result<json> ParseObject(std::string_view body, std::string_view what) {
  json j = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return Status::InvalidArgument("REST catalog sent a " + std::string(what) + " that is not valid JSON: " +
                                   std::string(body.substr(0, 200)));
  }
  if (!j.is_object()) {
    return Status::InvalidArgument("REST catalog sent a " + std::string(what) + " that is not a JSON object: " +
                                   std::string(body.substr(0, 200)));
  }
  return j;
}

// An object of strings; other scalars are kept as their JSON text (servers differ there).
Result<Properties> StringMap(const json& obj, std::string_view key, std::string_view what) {
  Properties out;
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) return out;
  if (!it->is_object()) {
    return Status::InvalidArgument(std::string(what) + ": '" + std::string(key) + "' is not an object");
  }
  for (const auto& [k, v] : it->items()) out[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return out;
}

Result<Namespace> NamespaceFromJson(const json& j, std::string_view what) {
  if (!j.is_array()) return Status::InvalidArgument(std::string(what) + ": a namespace is not an array of strings");
  Namespace ns;
  for (const auto& level : j) {
    if (!level.is_string()) {
      return Status::InvalidArgument(std::string(what) + ": a namespace is not an array of strings");
    }
    ns.push_back(level.get<std::string>());
  }
  return ns;
}

std::string NextPageToken(const json& j) {
  auto it = j.find("next-page-token");
  if (it == j.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

// A body for messages: one line, at most 200 bytes.
std::string Snippet(std::string_view body) {
  std::string out;
  for (char c : body.substr(0, 200)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (body.size() > 200) out += "...";
  return out;
}

std::string Describe(long http_status, std::string_view body) {
  std::string out = "HTTP " + std::to_string(http_status);
  if (auto e = ParseErrorModel(body)) {
    if (!e->type.empty()) out += " " + e->type;
    if (!e->message.empty()) out += ": " + e->message;
  } else if (!body.empty()) {
    out += ": " + Snippet(body);
  }
  return out;
}

std::string WithQuery(std::string url, std::string_view key, std::string_view value) {
  url += url.find('?') == std::string::npos ? '?' : '&';
  url += std::string(key) + "=" + PercentEncode(value);
  return url;
}

}  // namespace

std::string EncodeNamespacePath(const Namespace& ns, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out += separator;
    out += PercentEncode(ns[i]);
  }
  return out;
}

std::string EncodeNamespaceQuery(const Namespace& ns) {
  std::string joined;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) joined.push_back(kQuerySeparator);
    joined += ns[i];
  }
  return PercentEncode(joined);
}

std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out.push_back('&');
    out += PercentEncode(k) + "=" + PercentEncode(v);
  }
  return out;
}

// --- Config -------------------------------------------------------------------------------------

Result<ServerConfig> ParseConfigResponse(std::string_view body) {
  FLOE_ASSIGN_OR_RETURN(auto j, ParseObject(body, "/v1/config answer"));
  ServerConfig config;
  FLOE_ASSIGN_OR_RETURN(config.defaults, StringMap(j, "defaults", "/v1/config"));
  FLOE_ASSIGN_OR_RETURN(config.overrides, StringMap(j, "overrides", "/v1/config"));
  if (auto it = j.find("endpoints"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) return Status::InvalidArgument("/v1/config: 'endpoints' is not an array");
    for (const auto& e : *it) {
      if (!e.is_string()) return Status::InvalidArgument("/v1/config: 'endpoints' holds a non-string");
      config.endpoints.push_back(e.get<std::string>());
    }
  }
  return config;
}

Properties MergeConfig(const ServerConfig& server, const Properties& client) {
  Properties merged = server.defaults;
  for (const auto& [k, v] : client) merged[k] = v;
  for (const auto& [k, v] : server.overrides) merged[k] = v;
  return merged;
}

// --- Paths --------------------------------------------------------------------------------------

ResourcePaths::ResourcePaths(std::string_view base_uri, std::string_view prefix, std::string_view separator)
    : base_(TrimSlashes(base_uri, /*leading=*/false)),
      prefix_(TrimSlashes(prefix, /*leading=*/true)),
      separator_(separator.empty() ? std::string(kDefaultNamespaceSeparator) : std::string(separator)) {}

ResourcePaths ResourcePaths::FromConfig(std::string_view base_uri, const Properties& merged) {
  auto get = [&](std::string_view key) -> std::string {
    auto it = merged.find(std::string(key));
    return it == merged.end() ? "" : it->second;
  };
  return ResourcePaths(base_uri, get(kPropPrefix), get(kPropNamespaceSeparator));
}

std::string ResourcePaths::Config(std::string_view base_uri, std::string_view warehouse) {
  std::string url = TrimSlashes(base_uri, false) + "/v1/config";
  return warehouse.empty() ? url : WithQuery(url, "warehouse", warehouse);
}

std::string ResourcePaths::OAuthTokens(std::string_view base_uri) {
  return TrimSlashes(base_uri, false) + "/v1/oauth/tokens";
}

std::string ResourcePaths::Root() const { return prefix_.empty() ? base_ + "/v1" : base_ + "/v1/" + prefix_; }

std::string ResourcePaths::Namespaces() const { return Root() + "/namespaces"; }

std::string ResourcePaths::ListNamespaces(const Namespace& parent, std::string_view page_token) const {
  std::string url = Namespaces();
  // Built by hand: the value is already encoded (0x1F joined, then %-encoded).
  if (!parent.empty()) url += "?parent=" + EncodeNamespaceQuery(parent);
  return page_token.empty() ? url : WithQuery(url, "pageToken", page_token);
}

std::string ResourcePaths::NamespaceUrl(const Namespace& ns) const {
  return Namespaces() + "/" + EncodeNamespacePath(ns, separator_);
}

std::string ResourcePaths::NamespaceProperties(const Namespace& ns) const { return NamespaceUrl(ns) + "/properties"; }

std::string ResourcePaths::Tables(const Namespace& ns) const { return NamespaceUrl(ns) + "/tables"; }

std::string ResourcePaths::ListTables(const Namespace& ns, std::string_view page_token) const {
  return page_token.empty() ? Tables(ns) : WithQuery(Tables(ns), "pageToken", page_token);
}

std::string ResourcePaths::Table(const TableIdentifier& id) const { return Tables(id.ns) + "/" + PercentEncode(id.name); }

std::string ResourcePaths::DropTable(const TableIdentifier& id, bool purge) const {
  return purge ? Table(id) + "?purgeRequested=true" : Table(id);
}

std::string ResourcePaths::Register(const Namespace& ns) const { return NamespaceUrl(ns) + "/register"; }

std::string ResourcePaths::Rename() const { return Root() + "/tables/rename"; }

std::string ResourcePaths::TransactionCommit() const { return Root() + "/transactions/commit"; }

// --- Errors -------------------------------------------------------------------------------------

std::optional<ErrorModel> ParseErrorModel(std::string_view body) {
  json j = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  auto it = j.find("error");
  if (it == j.end() || !it->is_object()) return std::nullopt;
  ErrorModel e;
  if (auto m = it->find("message"); m != it->end() && m->is_string()) e.message = m->get<std::string>();
  if (auto t = it->find("type"); t != it->end() && t->is_string()) e.type = t->get<std::string>();
  if (auto c = it->find("code"); c != it->end() && c->is_number_integer()) e.code = c->get<int>();
  return e;
}

Status StatusFromHttpError(long http_status, std::string_view body, RequestKind kind, std::string_view what) {
  const std::string head = "REST catalog: " + std::string(what) + " failed: " + Describe(http_status, body);
  switch (http_status) {
    case 400:
    case 422:
      return Status::InvalidArgument(head);
    case 401:
    case 403:
    case 419:
      return Status::Unavailable(head + " (not authorized: check the catalog token or credential and its "
                                        "privileges)");
    case 404:
      return Status::NotFound(head);
    case 406:
    case 501:
      return Status::Unsupported(head);
    case 409:
      return kind == RequestKind::kCreate ? Status::AlreadyExists(head) : Status::Conflict(head);
    default:
      break;
  }
  if (kind == RequestKind::kCommit && http_status >= 500 && http_status != 503) {
    return Status::Unavailable(head + " (commit state unknown: the server may or may not have applied the "
                                      "commit; reload the table and check before retrying)");
  }
  return Status::Unavailable(head);
}

Status StatusFromTransportError(std::string_view error, bool maybe_delivered, RequestKind kind,
                                std::string_view what) {
  std::string message = "REST catalog: " + std::string(what) + " failed: " + std::string(error);
  if (kind == RequestKind::kCommit && maybe_delivered) {
    message += " (commit state unknown: the request may have reached the server; reload the table and check "
               "before retrying)";
  }
  return Status::Unavailable(message);
}

bool IsRetryableHttpStatus(long http_status) {
  return http_status == 408 || http_status == 429 || http_status == 500 || http_status == 502 ||
         http_status == 503 || http_status == 504;
}

// --- Bodies -------------------------------------------------------------------------------------

json TableIdentifierJson(const TableIdentifier& id) { return {{"namespace", json(id.ns)}, {"name", id.name}}; }

json CreateTableRequestJson(const NewTable& table, bool stage_only) {
  json body = {{"name", table.id.name}, {"schema", schema::SchemaToJson(table.schema)}};
  if (table.spec) body["partition-spec"] = schema::PartitionSpecToJson(*table.spec);
  if (table.sort_order) body["write-order"] = schema::SortOrderToJson(*table.sort_order);
  if (!table.location.empty()) body["location"] = table.location;
  body["properties"] = json::object();
  for (const auto& [k, v] : table.properties) body["properties"][k] = v;
  body["stage-create"] = stage_only;
  return body;
}

json CommitTableRequestJson(const TableChange& change, bool with_identifier) {
  json body = json::object();
  if (with_identifier) body["identifier"] = TableIdentifierJson(change.id);
  body["requirements"] = iceberg::TableRequirementsToJson(change.requirements);
  body["updates"] = iceberg::TableUpdatesToJson(change.updates);
  return body;
}

json CommitTransactionRequestJson(const std::vector<TableChange>& changes) {
  json list = json::array();
  for (const auto& c : changes) list.push_back(CommitTableRequestJson(c, /*with_identifier=*/true));
  return {{"table-changes", list}};
}

Result<LoadTableResult> ParseLoadTableResult(std::string_view body) {
  FLOE_ASSIGN_OR_RETURN(auto j, ParseObject(body, "table"));
  LoadTableResult out;
  if (auto it = j.find("metadata-location"); it != j.end() && !it->is_null()) {
    if (!it->is_string()) return Status::InvalidArgument("REST catalog table: 'metadata-location' is not a string");
    out.metadata_location = it->get<std::string>();
  }
  auto metadata = j.find("metadata");
  if (metadata == j.end() || !metadata->is_object()) {
    return Status::InvalidArgument("REST catalog table: 'metadata' is missing or not an object");
  }
  auto parsed = iceberg::TableMetadataFromJson(*metadata);
  if (!parsed.ok()) return parsed.status().WithContext("REST catalog table");
  out.metadata = std::move(parsed).value();
  FLOE_ASSIGN_OR_RETURN(out.config, StringMap(j, "config", "REST catalog table"));
  if (auto it = j.find("storage-credentials"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) return Status::InvalidArgument("REST catalog table: 'storage-credentials' is not an array");
    for (const auto& entry : *it) {
      StorageCredential credential;
      if (!entry.is_object() || !entry.contains("prefix") || !entry["prefix"].is_string()) {
        return Status::InvalidArgument("REST catalog table: a 'storage-credentials' entry has no string 'prefix'");
      }
      credential.prefix = entry["prefix"].get<std::string>();
      FLOE_ASSIGN_OR_RETURN(credential.config, StringMap(entry, "config", "REST catalog storage credential"));
      out.storage_credentials.push_back(std::move(credential));
    }
  }
  return out;
}

std::vector<storage::DelegatedAccess> DelegatedStorageAccess(const Properties& catalog, const LoadTableResult& table) {
  Properties base = catalog;
  for (const auto& [key, value] : table.config) base[key] = value;
  std::vector<storage::DelegatedAccess> out;
  if (!table.metadata.location.empty()) out.push_back({table.metadata.location, base});
  for (const auto& credential : table.storage_credentials) {
    Properties merged = base;
    for (const auto& [key, value] : credential.config) merged[key] = value;
    out.push_back({credential.prefix, std::move(merged)});
  }
  return out;
}

Result<std::vector<Namespace>> ParseListNamespaces(std::string_view body, Page& page) {
  FLOE_ASSIGN_OR_RETURN(auto j, ParseObject(body, "namespace list"));
  auto it = j.find("namespaces");
  if (it == j.end() || !it->is_array()) return Status::InvalidArgument("namespace list: 'namespaces' is not an array");
  std::vector<Namespace> out;
  for (const auto& ns : *it) {
    FLOE_ASSIGN_OR_RETURN(auto parsed, NamespaceFromJson(ns, "namespace list"));
    out.push_back(std::move(parsed));
  }
  page.next_page_token = NextPageToken(j);
  return out;
}

Result<std::vector<TableIdentifier>> ParseListTables(std::string_view body, Page& page) {
  FLOE_ASSIGN_OR_RETURN(auto j, ParseObject(body, "table list"));
  auto it = j.find("identifiers");
  if (it == j.end() || !it->is_array()) return Status::InvalidArgument("table list: 'identifiers' is not an array");
  std::vector<TableIdentifier> out;
  for (const auto& id : *it) {
    if (!id.is_object() || !id.contains("name") || !id["name"].is_string() || !id.contains("namespace")) {
      return Status::InvalidArgument("table list: an identifier is not {\"namespace\": [...], \"name\": \"...\"}");
    }
    TableIdentifier t;
    FLOE_ASSIGN_OR_RETURN(t.ns, NamespaceFromJson(id["namespace"], "table list"));
    t.name = id["name"].get<std::string>();
    out.push_back(std::move(t));
  }
  page.next_page_token = NextPageToken(j);
  return out;
}

Result<Properties> ParseNamespaceProperties(std::string_view body) {
  FLOE_ASSIGN_OR_RETURN(auto j, ParseObject(body, "namespace"));
  return StringMap(j, "properties", "namespace");
}

Result<OAuthToken> ParseOAuthTokenResponse(long http_status, std::string_view body) {
  json j = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (http_status != 200) {
    std::string detail = Snippet(body);
    if (j.is_object() && j.contains("error") && j["error"].is_string()) {
      detail = j["error"].get<std::string>();
      if (j.contains("error_description") && j["error_description"].is_string()) {
        detail += ": " + j["error_description"].get<std::string>();
      }
    } else if (auto e = ParseErrorModel(body)) {
      detail = e->type + ": " + e->message;
    }
    return Status::Unavailable("REST catalog: OAuth2 token request failed (not authorized): HTTP " +
                               std::to_string(http_status) + " " + detail);
  }
  if (!j.is_object() || !j.contains("access_token") || !j["access_token"].is_string()) {
    return Status::Unavailable("REST catalog: OAuth2 token response has no access_token (" +
                               std::string(j.is_object() ? "a JSON object without it" : "not a JSON object") + ")");
  }
  OAuthToken token;
  token.access_token = j["access_token"].get<std::string>();
  if (auto it = j.find("expires_in"); it != j.end()) {
    if (it->is_number_integer()) token.expires_in_seconds = it->get<long>();
    if (it->is_string()) {
      const std::string text = it->get<std::string>();
      char* end = nullptr;
      const long seconds = std::strtol(text.c_str(), &end, 10);
      if (!text.empty() && end && *end == '\0') token.expires_in_seconds = seconds;
    }
  }
  return token;
}

}  // namespace floe::catalog::rest
