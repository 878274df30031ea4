#include "floe/catalog/unity_client.h"

#include "floe/core/percent_encoding.h"

namespace floe::catalog {
namespace {

constexpr std::string_view kApiPath = "/api/2.1/unity-catalog";

std::string ApiBase(std::string uri) {
  while (!uri.empty() && uri.back() == '/') uri.pop_back();
  if (uri.size() >= kApiPath.size() && uri.compare(uri.size() - kApiPath.size(), kApiPath.size(), kApiPath) == 0) {
    return uri;
  }
  return uri + std::string(kApiPath);
}

}  // namespace

Status UnityErrorStatus(long http_status, const std::string& body, const std::string& what) {
  auto answer = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  std::string code;
  std::string message;
  if (answer.is_object()) {
    if (answer.contains("error_code") && answer["error_code"].is_string()) code = answer["error_code"];
    if (answer.contains("message") && answer["message"].is_string()) message = answer["message"];
  }
  if (message.empty()) message = body.substr(0, 300);
  const std::string text = "Unity Catalog: " + what + ": HTTP " + std::to_string(http_status) +
                           (code.empty() ? "" : " " + code) + (message.empty() ? "" : ": " + message);
  if (http_status == 404) return Status::NotFound(text);
  if (http_status == 409) return Status::AlreadyExists(text);
  if (http_status == 429 || http_status >= 500) return Status::Unavailable(text);
  if (http_status == 401 || http_status == 403) {
    return Status::IoError(text + " (check catalog.token and the grants: Floe needs USE CATALOG, USE SCHEMA, "
                                  "CREATE SCHEMA and CREATE TABLE / MODIFY; docs/catalog.md)");
  }
  if (http_status == 400) return Status::InvalidArgument(text);
  return Status::IoError(text);
}

UnityClient::UnityClient(std::string uri, std::string token, std::unique_ptr<rest::HttpTransport> transport)
    : api_base_(ApiBase(std::move(uri))),
      token_(std::move(token)),
      transport_(transport ? std::move(transport) : rest::MakeCurlTransport({})) {}

Result<nlohmann::json> UnityClient::Call(const std::string& method, const std::string& path,
                                         const nlohmann::json* body, const std::string& what) {
  rest::HttpRequest request;
  request.method = method;
  request.url = api_base_ + path;
  request.headers.emplace_back("Accept", "application/json");
  if (!token_.empty()) request.headers.emplace_back("Authorization", "Bearer " + token_);
  if (body != nullptr) {
    request.headers.emplace_back("Content-Type", "application/json");
    request.body = body->dump();
  }
  const rest::HttpResponse response = transport_->Send(request);
  if (response.status == 0) {
    return Status::Unavailable("Unity Catalog: " + what + ": " + method + " " + request.url + ": " + response.error);
  }
  if (response.status < 200 || response.status >= 300) return UnityErrorStatus(response.status, response.body, what);
  // A DELETE's answer carries nothing Floe reads: Databricks sends {}, the open-source server
  // (Armeria's HttpResponse.of(OK)) the text "200 OK" as text/plain.
  if (response.body.empty() || method == "DELETE") return nlohmann::json::object();
  auto answer = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded()) {
    return Status::IoError("Unity Catalog: " + what + ": the answer is not JSON: " + response.body.substr(0, 200));
  }
  return answer;
}

Status UnityClient::EnsureCatalog(const std::string& catalog) {
  const std::string what = "catalog " + catalog;
  auto got = Call("GET", "/catalogs/" + PercentEncode(catalog), nullptr, what);
  if (got.ok() || got.status().code() != StatusCode::kNotFound) return got.status();
  const nlohmann::json create = {{"name", catalog}, {"comment", "created by Floe for its Kafka topics"}};
  auto created = Call("POST", "/catalogs", &create, "creating " + what);
  if (created.status().code() == StatusCode::kAlreadyExists) return Status::OK();
  return created.status();
}

Status UnityClient::EnsureSchema(const std::string& catalog, const std::string& schema) {
  const std::string full_name = catalog + "." + schema;
  const std::string what = "schema " + full_name;
  auto got = Call("GET", "/schemas/" + PercentEncode(full_name), nullptr, what);
  if (got.ok() || got.status().code() != StatusCode::kNotFound) return got.status();
  const nlohmann::json create = {{"name", schema}, {"catalog_name", catalog}};
  auto created = Call("POST", "/schemas", &create, "creating " + what);
  if (created.status().code() == StatusCode::kAlreadyExists) return Status::OK();
  return created.status();
}

Result<std::optional<nlohmann::json>> UnityClient::GetTable(const std::string& full_name) {
  auto got = Call("GET", "/tables/" + PercentEncode(full_name), nullptr, "table " + full_name);
  if (got.status().code() == StatusCode::kNotFound) return std::optional<nlohmann::json>();
  if (!got.ok()) return got.status();
  return std::optional<nlohmann::json>(std::move(*got));
}

Status UnityClient::CreateTable(const nlohmann::json& create) {
  const std::string full_name = create.value("catalog_name", "") + "." + create.value("schema_name", "") + "." +
                                create.value("name", "");
  return Call("POST", "/tables", &create, "creating table " + full_name).status();
}

Status UnityClient::DeleteTable(const std::string& full_name) {
  return Call("DELETE", "/tables/" + PercentEncode(full_name), nullptr, "dropping table " + full_name).status();
}

Result<nlohmann::json> UnityClient::GetTableGrants(const std::string& full_name) {
  FLOE_ASSIGN_OR_RETURN(auto got, Call("GET", "/permissions/table/" + PercentEncode(full_name), nullptr,
                                       "grants on table " + full_name));
  return got.value("privilege_assignments", nlohmann::json::array());
}

Status UnityClient::AddTableGrants(const std::string& full_name, const nlohmann::json& assignments) {
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& a : assignments) {
    if (!a.contains("principal") || !a.contains("privileges") || a["privileges"].empty()) continue;
    // Unity's PermissionsChange requires both lists.
    changes.push_back({{"principal", a["principal"]}, {"add", a["privileges"]}, {"remove", nlohmann::json::array()}});
  }
  if (changes.empty()) return Status::OK();
  const nlohmann::json body = {{"changes", changes}};
  return Call("PATCH", "/permissions/table/" + PercentEncode(full_name), &body, "granting on table " + full_name)
      .status();
}

}  // namespace floe::catalog
