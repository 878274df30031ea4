// The `catalog` section of the config (docs/catalog.md).
#include <algorithm>
#include <regex>

#include "floe/core/config_reader_internal.h"
#include "floe/core/units.h"

namespace floe::config_internal {
namespace {

const std::vector<std::pair<std::string, CatalogType>> kCatalogTypes = {
    {"builtin", CatalogType::kBuiltin}, {"rest", CatalogType::kRest}, {"glue", CatalogType::kGlue}, {"unity", CatalogType::kUnity}};

// catalog.type glue: region, catalog_id, endpoint and the credentials of storage.s3 (same rules).
const std::vector<std::string> kGlueKeys = {"region",        "catalog_id",        "endpoint",
                                            "credentials",   "access_key_id",     "secret_access_key",
                                            "session_token", "role_arn",          "external_id"};

void ReadGlueCatalog(ConfigReader& r, const YAML::Node& node, bool glue, GlueCatalogConfig& g) {
  const std::string path = "catalog";
  if (!glue) {
    for (const auto& key : kGlueKeys) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with type: glue");
    }
    return;
  }
  for (const char* key : {"uri", "listen"}) {
    if (node[key]) r.Error(node[key], path + "." + key, "not used with type: glue (Glue is the catalog)");
  }
  ReadSecret(r, node, path, "region", g.region);
  r.Assign(node, path, "catalog_id", g.catalog_id);
  ReadEndpoint(r, node, path, g.endpoint);
  if (auto v = r.Choice(node, path, "credentials", kS3Credentials)) g.credentials = *v;
  const bool is_static = g.credentials == S3CredentialsKind::kStatic;
  ReadSecret(r, node, path, "access_key_id", g.access_key_id, /*required=*/is_static);
  ReadSecret(r, node, path, "secret_access_key", g.secret_access_key, /*required=*/is_static);
  ReadSecret(r, node, path, "session_token", g.session_token);
  if (!is_static) {
    for (const char* key : {"access_key_id", "secret_access_key", "session_token"}) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with credentials: static");
    }
  }
  ReadSecret(r, node, path, "role_arn", g.role_arn);
  ReadSecret(r, node, path, "external_id", g.external_id);
  if (!g.role_arn.empty() && is_static) {
    r.Error(node["role_arn"], path + ".role_arn", "assumes the role with the default credential chain, as storage.s3 does");
  }
  if (!g.external_id.empty() && g.role_arn.empty()) {
    r.Error(node["external_id"], path + ".external_id", "only with role_arn (it is sent when assuming the role)");
  }
}

// catalog.type unity (docs/catalog.md, "Unity Catalog"): the catalog name; uri is required above.
void ReadUnityCatalog(ConfigReader& r, const YAML::Node& node, CatalogConfig& c) {
  const bool unity = c.type == CatalogType::kUnity;
  r.Assign(node, "catalog", "unity_catalog", c.unity_catalog, /*required=*/unity);
  if (!unity) {
    if (node["unity_catalog"]) r.Error(node["unity_catalog"], "catalog.unity_catalog", "only with type: unity");
    return;
  }
  for (const char* key : {"listen", "vend_credentials"}) {
    if (node[key]) r.Error(node[key], std::string("catalog.") + key, "not used with type: unity");
  }
}

// Unity Catalog registers Delta tables, three-level names: <unity_catalog>.<schema>.<table>.
void CheckUnityTopics(ConfigReader& r, const YAML::Node& root, const FloeConfig& c) {
  for (std::size_t i = 0; i < c.topics.size(); ++i) {
    const auto& t = c.topics[i];
    const std::string path = "topics[" + std::to_string(i) + "]";
    if (std::find(t.formats.begin(), t.formats.end(), TableFormat::kIceberg) != t.formats.end()) {
      r.Error(root["topics"][i], path + ".formats",
              "with catalog.type unity, tables are Delta tables registered in Unity Catalog: use formats: [delta] "
              "(defaults.formats sets it for every topic)");
    }
    const std::string table = t.table.empty() ? c.defaults.namespace_name + ".x" : t.table;
    if (std::count(table.begin(), table.end(), '.') != 1) {
      r.Error(root["topics"][i], path + ".table",
              "'" + t.table + "': with catalog.type unity a table is <schema>.<table> (Unity adds the catalog, " +
              c.catalog.unity_catalog + ")");
    }
  }
}

// catalog.type rest: OAuth2 client credentials, /v1/config's warehouse, SigV4 signing.
const std::vector<std::string> kRestKeys = {"credential", "oauth2_server_uri", "scope", "warehouse", "sigv4",
                                            "access_delegation"};
const std::vector<std::pair<std::string, std::string>> kAccessDelegations = {{"none", ""},
                                                                             {"vended-credentials", "vended-credentials"}};
const std::vector<std::pair<std::string, std::string>> kSigV4Services = {
    {"glue", "glue"}, {"s3tables", "s3tables"}, {"execute-api", "execute-api"}};

void ReadRestCatalog(ConfigReader& r, const YAML::Node& node, CatalogConfig& c) {
  const std::string path = "catalog";
  if (c.type != CatalogType::kRest) {
    for (const auto& key : kRestKeys) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with type: rest");
    }
    return;
  }
  ReadSecret(r, node, path, "credential", c.credential);
  ReadSecret(r, node, path, "oauth2_server_uri", c.oauth2_server_uri);
  r.Assign(node, path, "scope", c.scope);
  r.Assign(node, path, "warehouse", c.warehouse);
  if (auto v = r.Choice(node, path, "access_delegation", kAccessDelegations)) c.access_delegation = *v;
  if (!c.credential.empty() && !c.token.empty()) {
    r.Error(node["credential"], path + ".credential",
            "not with catalog.token: the token is either static (token) or fetched with OAuth2 client credentials "
            "(credential), not both");
  }
  if (node["credential"] && c.credential.empty()) {
    r.Error(node["credential"], path + ".credential", "is empty (expected client_id:client_secret)");
  } else if (!c.credential.empty() && c.credential.back() == ':') {
    r.Error(node["credential"], path + ".credential", "has no secret after the ':' (expected client_id:client_secret)");
  }
  if (!c.oauth2_server_uri.empty()) {
    if (c.credential.empty()) {
      r.Error(node["oauth2_server_uri"], path + ".oauth2_server_uri", "only with catalog.credential");
    }
    if (c.oauth2_server_uri.rfind("http://", 0) != 0 && c.oauth2_server_uri.rfind("https://", 0) != 0) {
      r.Error(node["oauth2_server_uri"], path + ".oauth2_server_uri", "must start with http:// or https://");
    }
  }
  if (node["scope"] && c.credential.empty()) r.Error(node["scope"], path + ".scope", "only with catalog.credential");
  const YAML::Node sigv4 = node["sigv4"];
  if (!sigv4.IsDefined() || sigv4.IsNull()) return;
  if (!r.ExpectMap(sigv4, path + ".sigv4", {"region", "service"})) return;
  CatalogConfig::SigV4 s;
  ReadSecret(r, sigv4, path + ".sigv4", "region", s.region);
  if (auto v = r.Choice(sigv4, path + ".sigv4", "service", kSigV4Services)) s.service = *v;
  c.sigv4 = s;
}

}  // namespace

void ReadCatalog(ConfigReader& r, const YAML::Node& cat, const StorageConfig& storage, CatalogConfig& c) {
  if (!cat.IsDefined() || cat.IsNull()) return;
  if (!r.ExpectMap(cat, "catalog", [] {
        std::vector<std::string> keys = {"type", "uri", "listen", "token", "vend_credentials", "unity_catalog", "tls",
                                         "auth", "max_request_size", "request_timeout", "allowed_locations"};
        keys.insert(keys.end(), kGlueKeys.begin(), kGlueKeys.end());
        keys.insert(keys.end(), kRestKeys.begin(), kRestKeys.end());
        return keys;
      }()))
    return;
  if (auto v = r.Choice(cat, "catalog", "type", kCatalogTypes)) c.type = *v;
  ReadGlueCatalog(r, cat, c.type == CatalogType::kGlue, c.glue);
  r.Assign(cat, "catalog", "uri", c.uri, /*required=*/c.type == CatalogType::kRest || c.type == CatalogType::kUnity);
  ReadUnityCatalog(r, cat, c);
  r.Assign(cat, "catalog", "listen", c.listen);
  ReadSecret(r, cat, "catalog", "token", c.token);
  ReadRestCatalog(r, cat, c);
  if (auto v = r.Choice(cat, "catalog", "vend_credentials", kBooleans)) c.vend_credentials = *v;
  if (c.vend_credentials && (!storage.s3 || storage.s3->role_arn.empty())) {
    r.Error(cat["vend_credentials"], "catalog.vend_credentials",
            "needs storage.s3.role_arn: vended credentials are read-only sessions of that role (docs/storage.md)");
  }
  if (!c.listen.empty() && !IsHostPort(c.listen)) {
    r.Error(cat["listen"], "catalog.listen", "'" + c.listen + "' is not host:port");
  }
  // tls and auth are the served catalog's (catalog.listen or `floe catalog serve`).
  for (const char* key : {"tls", "auth"}) {
    if (cat[key] && c.type != CatalogType::kBuiltin) {
      r.Error(cat[key], std::string("catalog.") + key, "only with type: builtin (they secure the served catalog)");
    }
  }
  ReadServerTls(r, cat, "catalog", c.tls);
  ReadCatalogAuth(r, cat, "catalog", c.auth);
  if (auto v = r.Parsed<std::int64_t>(cat, "catalog", "max_request_size", ParseByteSize)) c.max_request_size = *v;
  if (c.max_request_size < 1024) r.Error(cat["max_request_size"], "catalog.max_request_size", "must be at least 1KiB");
  if (auto v = r.Parsed<std::chrono::milliseconds>(cat, "catalog", "request_timeout", ParseDuration)) c.request_timeout = *v;
  if (c.request_timeout < std::chrono::milliseconds(100)) {
    r.Error(cat["request_timeout"], "catalog.request_timeout", "must be at least 100ms");
  }
  if (auto v = r.StringList(cat, "catalog", "allowed_locations")) {
    if (c.type != CatalogType::kBuiltin) {
      r.Error(cat["allowed_locations"], "catalog.allowed_locations", "only with type: builtin (it guards the served catalog)");
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
      const std::string& place = (*v)[i];
      if (!place.starts_with("/") && place.find("://") == std::string::npos && !place.starts_with("file:/")) {
        r.Error(cat["allowed_locations"][i], "catalog.allowed_locations[" + std::to_string(i) + "]",
                "'" + place + "' is neither an absolute path nor a URI (file:///…, s3://bucket/…)");
      }
    }
    c.allowed_locations = *v;
  }
}

void CheckCatalogNames(ConfigReader& r, const YAML::Node& root, const FloeConfig& c) {
  if (c.catalog.type == CatalogType::kGlue) CheckGlueTableNames(r, root, c);
  if (c.catalog.type == CatalogType::kUnity) CheckUnityTopics(r, root, c);
}

}  // namespace floe::config_internal
