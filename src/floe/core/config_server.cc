// The settings of the servers Floe runs: `tls` (catalog.tls, admin.tls) and catalog.auth
// (docs/security.md). Files are checked when the config is read, so that `floe validate`
// finds a wrong path rather than the server's start.
#include <fstream>
#include <set>

#include "floe/core/config_reader_internal.h"
#include "floe/core/units.h"

namespace floe::config_internal {
namespace {

const std::vector<std::pair<std::string, CatalogAuthConfig::Scope>> kScopes = {
    {"read", CatalogAuthConfig::Scope::kRead}, {"write", CatalogAuthConfig::Scope::kWrite}};

void ReadPemFile(ConfigReader& r, const YAML::Node& node, const std::string& path, const char* key,
                 std::string& out) {
  r.Assign(node, path, key, out, /*required=*/true);
  if (out.empty()) return;
  std::ifstream in(out);
  std::string first;
  if (!in || !std::getline(in, first)) {
    r.Error(node[key], path + "." + key, "cannot read '" + out + "'");
  } else if (first.rfind("-----BEGIN ", 0) != 0) {
    r.Error(node[key], path + "." + key, "'" + out + "' is not a PEM file (it should start with -----BEGIN)");
  }
}

}  // namespace

void ReadServerTls(ConfigReader& r, const YAML::Node& parent, const std::string& path,
                   std::optional<ServerTlsConfig>& out) {
  const YAML::Node node = parent["tls"];
  if (!node.IsDefined() || node.IsNull()) return;
  const std::string tls_path = path + ".tls";
  if (!r.ExpectMap(node, tls_path, {"cert", "key"})) return;
  ServerTlsConfig tls;
  ReadPemFile(r, node, tls_path, "cert", tls.cert_file);
  ReadPemFile(r, node, tls_path, "key", tls.key_file);
  out = tls;
}

void ReadCatalogAuth(ConfigReader& r, const YAML::Node& parent, const std::string& section,
                     std::optional<CatalogAuthConfig>& out) {
  const YAML::Node node = parent["auth"];
  if (!node.IsDefined() || node.IsNull()) return;
  const std::string path = section + ".auth";
  if (!r.ExpectMap(node, path, {"clients", "token_ttl"})) return;
  CatalogAuthConfig auth;
  if (auto ttl = r.Parsed<std::chrono::milliseconds>(node, path, "token_ttl", ParseDuration)) {
    auth.token_ttl = std::chrono::duration_cast<std::chrono::seconds>(*ttl);
    // The token response's expires_in is whole seconds.
    if (auth.token_ttl.count() < 1) r.Error(node["token_ttl"], path + ".token_ttl", "must be at least 1s");
  }
  const YAML::Node clients = node["clients"];
  if (!clients.IsDefined() || !clients.IsSequence() || clients.size() == 0) {
    r.Error(clients.IsDefined() ? clients : node, path + ".clients",
            "expected a list of clients, each {id, secret, scope: read|write}");
    return;
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < clients.size(); ++i) {
    const std::string client_path = path + ".clients[" + std::to_string(i) + "]";
    if (!r.ExpectMap(clients[i], client_path, {"id", "secret", "scope"})) continue;
    CatalogAuthConfig::Client c;
    r.Assign(clients[i], client_path, "id", c.id, /*required=*/true);
    ReadSecret(r, clients[i], client_path, "secret", c.secret, /*required=*/true);
    if (auto scope = r.Choice(clients[i], client_path, "scope", kScopes)) c.scope = *scope;
    if (clients[i]["secret"] && c.secret.empty()) r.Error(clients[i]["secret"], client_path + ".secret", "is empty");
    if (!c.id.empty() && !ids.insert(c.id).second) {
      r.Error(clients[i]["id"], client_path + ".id", "'" + c.id + "' is configured twice");
    }
    auth.clients.push_back(std::move(c));
  }
  out = std::move(auth);
}

}  // namespace floe::config_internal
