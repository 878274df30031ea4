#pragma once
// Unity Catalog's REST API (/api/2.1/unity-catalog, the open-source server's and Databricks'):
// catalogs, schemas and tables, as much as Floe needs to register its Delta tables as external
// tables. Bearer-token auth. Unity's errors ({"error_code": …, "message": …}) become Status
// codes: 404 kNotFound, 409 kAlreadyExists, 401/403 kPermissionDenied-like kIoError with a
// hint, 429/5xx and transport failures kUnavailable (the caller retries with its backoff).
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/catalog/rest_client_http.h"
#include "floe/core/result.h"

namespace floe::catalog {

class UnityClient {
 public:
  // uri: the server (http://host:8080) or a Databricks workspace URL; the API path is appended
  // unless `uri` already ends with it. token: "" for servers without auth.
  UnityClient(std::string uri, std::string token, std::unique_ptr<rest::HttpTransport> transport = nullptr);

  // Creates the catalog / schema when it does not exist (a peer creating it first is fine).
  Status EnsureCatalog(const std::string& catalog);
  Status EnsureSchema(const std::string& catalog, const std::string& schema);

  // GET /tables/{catalog.schema.table}: the TableInfo, or nullopt when there is none.
  Result<std::optional<nlohmann::json>> GetTable(const std::string& full_name);
  // POST /tables with a CreateTable body.
  Status CreateTable(const nlohmann::json& create);
  Status DeleteTable(const std::string& full_name);
  // GET /permissions/table/{name}: its privilege_assignments ([{principal, privileges: […]}]).
  Result<nlohmann::json> GetTableGrants(const std::string& full_name);
  // PATCH /permissions/table/{name}: adds each assignment's privileges to its principal.
  Status AddTableGrants(const std::string& full_name, const nlohmann::json& assignments);

  const std::string& api_base() const { return api_base_; }

 private:
  // One request; `what` names the object for errors. Returns the answer's JSON ({} when empty).
  Result<nlohmann::json> Call(const std::string& method, const std::string& path, const nlohmann::json* body,
                              const std::string& what);

  std::string api_base_;
  std::string token_;
  std::unique_ptr<rest::HttpTransport> transport_;
};

// Unity's error answer as a Status naming `what` (exposed for unit tests).
Status UnityErrorStatus(long http_status, const std::string& body, const std::string& what);

}  // namespace floe::catalog
