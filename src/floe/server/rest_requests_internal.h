#pragma once
// Reading REST catalog requests, shared by the table/namespace routes (rest_catalog_service.cc)
// and the view routes (rest_view_routes.cc): names from paths and bodies, checked before they
// are used in paths; bodies parsed without exceptions. Failures are kInvalidArgument (400).
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/server/http_server.h"
#include "floe/server/rest_locations_internal.h"

namespace floe::server {

// 1–255 bytes, no '\' or control characters (NUL included), and no '/'-separated piece that
// is "." or "..", as written or percent-decoded ("%2e%2E"). '/' is allowed (Iceberg's catalogs
// allow it): DefaultTableLocation never lets it split a directory.
Status ValidateName(const std::string& name, const char* what);
// A {namespace} path parameter: levels separated by the spec's %1F (already decoded).
Result<catalog::Namespace> ParseNamespacePath(const std::string& text);
Result<catalog::Namespace> NamespaceFromJson(const nlohmann::json& j);
// {"namespace": [...], "name": "..."}
Result<catalog::TableIdentifier> IdentifierFromJson(const nlohmann::json& j);
// The table or view of a /v1/namespaces/{ns}/(tables|views)/{name} path; `what` names it in errors.
Result<catalog::TableIdentifier> PathIdentifier(const HttpRequest& request, const char* what);
// A RenameTableRequest (tables and views alike): {"source": identifier, "destination": identifier}.
struct RenameRequest {
  catalog::TableIdentifier from;
  catalog::TableIdentifier to;
};
Result<RenameRequest> ParseRenameRequest(const HttpRequest& request);
// The body as a JSON object.
Result<nlohmann::json> ParseBody(const HttpRequest& request);
// An object of strings (null: empty); `what` names it in errors.
Result<std::map<std::string, std::string>> StringMap(const nlohmann::json& j, const char* what);

// The request bodies of the table and namespace routes, read completely before the catalog is
// touched (tests/fuzz/rest_request_fuzzer.cc feeds them arbitrary bytes).
// POST /v1/namespaces: {"namespace": [...], "properties": {...}}
struct CreateNamespaceRequest {
  catalog::Namespace ns;
  std::map<std::string, std::string> properties;
};
Result<CreateNamespaceRequest> ParseCreateNamespaceRequest(const HttpRequest& request);
// POST /v1/namespaces/{ns}/properties: {"removals": [...], "updates": {...}}
struct PropertiesUpdateRequest {
  std::vector<std::string> removals;
  std::map<std::string, std::string> updates;
};
Result<PropertiesUpdateRequest> ParsePropertiesUpdateRequest(const HttpRequest& request);
// POST /v1/namespaces/{ns}/tables: a CreateTableRequest; unbound partition specs and sort
// orders (no field or spec/order ids, as REST clients send them) are bound the way the spec
// assigns ids.
struct CreateTableRequest {
  catalog::NewTable table;
  bool stage = false;
};
Result<CreateTableRequest> ParseCreateTableRequest(const catalog::Namespace& ns, const HttpRequest& request);
// POST /v1/namespaces/{ns}/register: {"name", "metadata-location"}
struct RegisterTableRequest {
  catalog::TableIdentifier id;
  std::string metadata_location;
};
Result<RegisterTableRequest> ParseRegisterTableRequest(const catalog::Namespace& ns, const HttpRequest& request);
// POST /v1/namespaces/{ns}/tables/{table}: a CommitTableRequest's requirements and updates.
Result<catalog::TableChange> ParseCommitTableRequest(const catalog::TableIdentifier& id, const HttpRequest& request);
// POST /v1/transactions/commit: {"table-changes": [{"identifier", "requirements", "updates"}]}
Result<std::vector<catalog::TableChange>> ParseCommitTransactionRequest(const HttpRequest& request);

// The view routes (create, load, exists, replace, drop, list, rename), registered by
// AddRestCatalogRoutes; `catalog` must outlive the server.
void AddRestViewRoutes(HttpServer& server, catalog::IcebergCatalog& catalog, const AllowedLocations& allowed);
// The endpoints AddRestViewRoutes serves, as /v1/config lists them.
const std::vector<std::string>& RestViewEndpoints();

}  // namespace floe::server
