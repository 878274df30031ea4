#pragma once
// The Iceberg REST catalog API (the subset engines use: config, namespaces, tables, commits,
// multi-table transactions, metrics, views) on top of IcebergCatalog. Spec: Iceberg's
// open-api/rest-catalog-open-api.yaml. Error bodies are its ErrorModel.
#include <functional>
#include <map>
#include <string>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/server/http_server.h"

namespace floe::server {

struct RestCatalogOptions {
  std::string bearer_token;  // when set, every request must carry "Authorization: Bearer <token>"
  // LoadTable's `config`: FileIO properties engines need to read the files (s3.endpoint, …).
  std::map<std::string, std::string> table_config;
  // Credential vending: when set, LoadTable (and create/register) also return credentials
  // for reading the table's location, in `config` and as `storage-credentials`.
  std::function<Result<std::map<std::string, std::string>>(const std::string& location)> vend_credentials;
};

// Registers the routes on `server`; `catalog` must outlive it.
void AddRestCatalogRoutes(HttpServer& server, catalog::IcebergCatalog& catalog, const RestCatalogOptions& options);

}  // namespace floe::server
