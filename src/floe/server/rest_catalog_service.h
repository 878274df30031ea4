#pragma once
// The Iceberg REST catalog API (the subset engines use: config, namespaces, tables, commits,
// multi-table transactions, metrics, views) on top of IcebergCatalog. Spec: Iceberg's
// open-api/rest-catalog-open-api.yaml. Error bodies are its ErrorModel.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/server/http_server.h"

namespace floe::server {

struct RestCatalogOptions {
  std::string bearer_token;  // when set, every request must carry "Authorization: Bearer <token>"
  // OAuth2 clients: POST /v1/oauth/tokens issues expiring read or write tokens
  // (rest_catalog_auth.h has the rules, with bearer_token as a static write token).
  std::optional<CatalogAuthConfig> auth;
  // LoadTable's `config`: FileIO properties engines need to read the files (s3.endpoint, …).
  std::map<std::string, std::string> table_config;
  // Credential vending: when set, LoadTable (and create/register) also return credentials
  // for reading the table's location, in `config` and as `storage-credentials`.
  std::function<Result<std::map<std::string, std::string>>(const std::string& location)> vend_credentials;
  // Places besides the warehouse where clients may create or move tables and views
  // (catalog.allowed_locations); every other location a request sets is refused 403.
  std::vector<std::string> allowed_locations;
};

// Registers the routes on `server`; `catalog` must outlive it.
void AddRestCatalogRoutes(HttpServer& server, catalog::IcebergCatalog& catalog, const RestCatalogOptions& options);

}  // namespace floe::server
